import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from 'ra-core';
import { SignIn } from '../../src/account/SignIn';

describe('sign-in app', () => {
  it('signs in and hands over the token', async () => {
    const user = userEvent.setup();
    const login = vi.fn(async () => ({ accessToken: 'tok-9', expiresIn: 7200 }));
    const onSignedIn = vi.fn();
    render(<SignIn login={login} onSignedIn={onSignedIn} />);
    expect(screen.getByText('学助 · AI 教学助手')).toBeInTheDocument();
    await user.type(screen.getByLabelText('用户名'), ' teacher ');
    await user.type(screen.getByLabelText('密码'), 'Demo@2026');
    await user.click(screen.getByRole('button', { name: '登录' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('tok-9'));
    expect(login).toHaveBeenCalledWith('teacher', 'Demo@2026');
  });

  it("shows the server's Chinese message when sign-in fails", async () => {
    const user = userEvent.setup();
    const login = vi.fn(async () => Promise.reject(new HttpError('用户名或密码错误', 401)));
    const onSignedIn = vi.fn();
    render(<SignIn login={login} onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('用户名'), 'teacher');
    await user.type(screen.getByLabelText('密码'), 'wrong');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名或密码错误');
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
  });

  it('asks for what is missing before calling the server', async () => {
    const user = userEvent.setup();
    const login = vi.fn();
    render(<SignIn login={login} onSignedIn={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请输入用户名');
    await user.type(screen.getByLabelText('用户名'), 'teacher');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请输入密码');
    expect(login).not.toHaveBeenCalled();
  });

  it('says why the product sent the user here', () => {
    render(<SignIn login={vi.fn()} onSignedIn={vi.fn()} notice="登录已失效，请重新登录" />);
    expect(screen.getByText('登录已失效，请重新登录')).toBeInTheDocument();
  });
});

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
    render(<SignIn login={login} onSignedIn={onSignedIn} changePassword={vi.fn()} />);
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
    render(<SignIn login={login} onSignedIn={onSignedIn} changePassword={vi.fn()} />);
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
    render(<SignIn login={login} onSignedIn={vi.fn()} changePassword={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请输入用户名');
    await user.type(screen.getByLabelText('用户名'), 'teacher');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByRole('alert')).toHaveTextContent('请输入密码');
    expect(login).not.toHaveBeenCalled();
  });

  it('says why the product sent the user here', () => {
    render(<SignIn login={vi.fn()} onSignedIn={vi.fn()} changePassword={vi.fn()} notice="登录已失效，请重新登录" />);
    expect(screen.getByText('登录已失效，请重新登录')).toBeInTheDocument();
  });

  it('asks for a new password after a one-time one, and enters only once the server took it', async () => {
    const user = userEvent.setup();
    const login = vi.fn(async () => ({ accessToken: 'tok-once', expiresIn: 7200, mustChangePassword: true }));
    const changePassword = vi
      .fn()
      .mockRejectedValueOnce(new HttpError('新密码需同时包含字母和数字', 400))
      .mockResolvedValueOnce(null);
    const onSignedIn = vi.fn();
    render(<SignIn login={login} onSignedIn={onSignedIn} changePassword={changePassword} />);
    await user.type(screen.getByLabelText('用户名'), 'rootadmin');
    await user.type(screen.getByLabelText('密码'), 'Once9xYz');
    await user.click(screen.getByRole('button', { name: '登录' }));
    const form = await screen.findByRole('form', { name: '修改初始密码' });
    expect(onSignedIn).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('新密码'), 'abcdefgh');
    await user.type(screen.getByLabelText('确认新密码'), 'abcdefgX');
    await user.click(screen.getByRole('button', { name: '设置新密码并进入' }));
    expect(screen.getByRole('alert')).toHaveTextContent('两次输入的新密码不一致');
    expect(changePassword).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('确认新密码'));
    await user.type(screen.getByLabelText('确认新密码'), 'abcdefgh');
    await user.click(screen.getByRole('button', { name: '设置新密码并进入' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('新密码需同时包含字母和数字');
    expect(changePassword).toHaveBeenCalledWith('tok-once', 'Once9xYz', 'abcdefgh');
    expect(onSignedIn).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('新密码'));
    await user.clear(screen.getByLabelText('确认新密码'));
    await user.type(screen.getByLabelText('新密码'), 'Lake2027river');
    await user.type(screen.getByLabelText('确认新密码'), 'Lake2027river');
    await user.click(screen.getByRole('button', { name: '设置新密码并进入' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('tok-once'));
    expect(changePassword).toHaveBeenLastCalledWith('tok-once', 'Once9xYz', 'Lake2027river');
    expect(form).toBeInTheDocument();
  });
});

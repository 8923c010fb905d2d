// Password hashing with argon2id (DESIGN.md), through the prebuilt @node-rs/argon2 binding.
import { randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Letters and digits without look-alikes (0/O, 1/l/I), at least one of each kind. */
export function generatePassword(length = 10): string {
  const lower = 'abcdefghijkmnpqrstuvwxyz';
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = lower + upper + digits;
  const chars = [lower, upper, digits].map((set) => set[randomInt(set.length)]);
  while (chars.length < length) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/** A new password's length bounds; the sign-in form accepts up to 128 characters. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
/** Passwords anyone tries first, and the demo's published one. */
const COMMON = new Set(['12345678', '123456789', '1234567890', 'password', 'password1', 'qwertyuiop', 'abc12345', 'abcd1234', 'a1234567', 'aa123456', '11111111', '88888888', 'demo@2026', 'admin123', 'admin1234', 'xuezhu2026']);

/** Why a new password is not good enough, in Chinese, or undefined when it is. */
export function passwordProblem(password: string, { username, oldPassword }: { username: string; oldPassword?: string }): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return `新密码长度应为 ${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} 个字符`;
  if (/\s/.test(password)) return '新密码不能包含空格';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return '新密码需同时包含字母和数字';
  if (oldPassword !== undefined && password === oldPassword) return '新密码不能与原密码相同';
  if (username.length >= 3 && password.toLowerCase().includes(username.toLowerCase())) return '新密码不能包含用户名';
  if (COMMON.has(password.toLowerCase())) return '新密码过于常见，请换一个';
  return undefined;
}

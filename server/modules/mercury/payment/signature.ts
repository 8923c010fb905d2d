// The sandbox gateway signs each notice as WeChat Pay v3 does (timestamp, nonce and body, one
// line each) but with HMAC-SHA256 over a shared key instead of RSA: our side checks the signature
// and the timestamp's age before believing a word of the body.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADERS = { timestamp: 'x-sandbox-timestamp', nonce: 'x-sandbox-nonce', signature: 'x-sandbox-signature' } as const;
/** A notice older than this (or from the future) is refused, so a captured one cannot be replayed later. */
export const NOTICE_MAX_AGE_SECONDS = 5 * 60;

export function signNotice(key: Uint8Array, timestamp: string, nonce: string, body: string): string {
  return createHmac('sha256', key).update(`${timestamp}\n${nonce}\n${body}\n`).digest('base64');
}

export function verifyNotice(key: Uint8Array, headers: Record<string, string | string[] | undefined>, body: string, now = Date.now()): boolean {
  const one = (name: string) => (typeof headers[name] === 'string' ? (headers[name] as string) : '');
  const timestamp = one(SIGNATURE_HEADERS.timestamp);
  const nonce = one(SIGNATURE_HEADERS.nonce);
  const given = Buffer.from(one(SIGNATURE_HEADERS.signature), 'base64');
  if (!/^\d{1,12}$/.test(timestamp) || !nonce || nonce.length > 64) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > NOTICE_MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(signNotice(key, timestamp, nonce, body), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// The signing scheme of terminal requests (docs/api-devices.md): HMAC-SHA256, keyed with the
// terminal's secret, over the method, the path with its query, the timestamp, a nonce and the
// SHA-256 of the body, one per line. The server checks it; the simulator and real terminals sign.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_HEADERS = {
  serial: 'x-device-serial',
  timestamp: 'x-device-timestamp',
  nonce: 'x-device-nonce',
  signature: 'x-device-signature',
} as const;

/** The heartbeat's path: a relayed beat (POST /heartbeats) is signed as if sent here itself. */
export const HEARTBEAT_PATH = '/api/device/v1/heartbeat';

/** The body a terminal signs for its heartbeat: these three fields, in this order, as JSON. */
export const heartbeatBody = (beat: { paperLeft: number; jammed: boolean; firmware: string }) =>
  JSON.stringify({ paperLeft: beat.paperLeft, jammed: beat.jammed, firmware: beat.firmware });

export const sha256Hex = (body: string | Buffer) => createHash('sha256').update(body).digest('hex');

/** The text that is signed; `timestamp` in Unix seconds, `path` as sent (with its query). */
export function canonicalRequest(method: string, path: string, timestamp: string, nonce: string, body: string | Buffer): string {
  return [method.toUpperCase(), path, timestamp, nonce, sha256Hex(body)].join('\n');
}

export const signCanonical = (secret: string, canonical: string) => createHmac('sha256', secret).update(canonical).digest('hex');

/** Constant-time comparison of a received hex signature with the expected one. */
export function signatureMatches(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(received, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** The headers a terminal sends with a request (body: the exact bytes it sends, '' for none). */
export function signedHeaders(serial: string, secret: string, method: string, path: string, body: string | Buffer, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = randomBytes(12).toString('base64url');
  return {
    [DEVICE_HEADERS.serial]: serial,
    [DEVICE_HEADERS.timestamp]: timestamp,
    [DEVICE_HEADERS.nonce]: nonce,
    [DEVICE_HEADERS.signature]: signCanonical(secret, canonicalRequest(method, path, timestamp, nonce, body)),
  };
}

/**
 * A new terminal secret: 32 random bytes as hex. Made when a partner registers a terminal or
 * rotates its secret (and for the demo terminals by the seed); shown to the partner once.
 */
export const newDeviceSecret = () => randomBytes(32).toString('hex');

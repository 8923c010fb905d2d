// Terminal authentication: every device request is signed (signature.ts). Checked here before
// the route's schema, so an unsigned request learns nothing about the API's shape: the headers'
// form, the clock window, the serial, the signature (constant-time), then the nonce (a replay).
// Serial → id and secret are cached (secretCache.ts); rotating a secret invalidates the entry in
// every process, so the old secret stops working at once. Per-terminal request limits (limits.ts)
// come after all of this, so unsigned or replayed requests cannot spend a terminal's allowance.
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rows } from '../../db/query';
import { ApiError, forbidden } from '../../http/envelope';
import { CLOCK_SKEW_SECONDS } from '../../../src/domain/devices';
import { canonicalRequest, DEVICE_HEADERS, signatureMatches, signCanonical } from './signature';
import type { DeviceRef } from './usage';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route records the nonce itself, in its own statement (the heartbeat's hot path). */
    deviceNonceInline?: boolean;
  }
  interface FastifyRequest {
    /** The signed request's terminal; `placement` is loaded with the nonce unless the route does it. */
    device: { id: number; serial: string; nonce: string; placement?: Placement };
    rawBody: Buffer;
  }
}

/** Where the terminal stands now: its owner, and its school when deployed. */
export interface Placement {
  partnerId: number;
  schoolId: number | null;
  tenantId: number | null;
}

const refused = (msg: string) => new ApiError(401, msg);

const SERIAL = /^[A-Za-z0-9-]{1,32}$/;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;
const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^[0-9a-fA-F]{64}$/;
/** Nonces are kept a little longer than a timestamp can be accepted (±window), then pruned. */
const NONCE_KEEP_SECONDS = 2 * CLOCK_SKEW_SECONDS + 60;
const PRUNE_EVERY_MS = 60_000;

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export function registerDeviceAuth(app: FastifyInstance) {
  const db = app.db;
  const known = app.deviceSecrets;
  let prunedAt = 0;

  const lookUp = async (serial: string) => {
    const cached = known.get(serial);
    if (cached) return cached;
    const version = known.version();
    const [row] = await rows<{ id: number; secret: string }>(db, sql`SELECT id, secret FROM devices WHERE serial = ${serial}`);
    if (row) known.set(serial, row, version);
    return row;
  };

  const prune = () => {
    if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = Date.now();
    db.execute(sql`DELETE FROM device_nonces WHERE seen_at < now() - make_interval(secs => ${NONCE_KEEP_SECONDS})`).catch((error) =>
      app.log.warn({ err: error }, 'device nonce pruning failed'),
    );
  };

  app.decorateRequest('device', null as unknown as FastifyRequest['device']);
  app.decorateRequest('rawBody', null as unknown as Buffer);

  // The body's exact bytes are signed, so JSON is parsed here from the kept buffer.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    request.rawBody = body;
    if (!body.length) return done(null, undefined);
    try {
      done(null, JSON.parse(body.toString('utf8')));
    } catch {
      done(new ApiError(400, '请求内容不是有效的 JSON'), undefined);
    }
  });

  app.addHook('preValidation', async (request) => {
    const serial = header(request, DEVICE_HEADERS.serial);
    const timestamp = header(request, DEVICE_HEADERS.timestamp);
    const nonce = header(request, DEVICE_HEADERS.nonce);
    const signature = header(request, DEVICE_HEADERS.signature);
    if (!serial || !timestamp || !nonce || !signature) throw refused('缺少设备签名信息');
    if (!SERIAL.test(serial) || !TIMESTAMP.test(timestamp) || !NONCE.test(nonce) || !SIGNATURE.test(signature)) throw refused('设备签名信息格式不正确');
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > CLOCK_SKEW_SECONDS) throw refused('请求时间与服务器相差超过5分钟，请校准设备时钟');
    const device = await lookUp(serial);
    if (!device) throw refused('设备未注册');
    const expected = signCanonical(device.secret, canonicalRequest(request.method, request.url, timestamp, nonce, request.rawBody ?? ''));
    if (!signatureMatches(expected, signature)) throw refused('设备签名校验失败');
    prune();
    request.device = { id: device.id, serial, nonce };
    if (request.routeOptions.config.deviceNonceInline) return;
    // The nonce and where the terminal stands, in one statement, committed without waiting for the
    // disk: the usage write that follows is durable on its own, and a replay of an upload whose
    // nonce a crash forgot is recorded once anyway (idempotent by clientJobId).
    const [row] = await rows<Placement & { fresh: boolean }>(
      db,
      sql`WITH relaxed AS (SELECT set_config('synchronous_commit', 'off', true)),
          n AS (INSERT INTO device_nonces (device_id, nonce) VALUES (${device.id}, ${nonce}) ON CONFLICT DO NOTHING RETURNING 1)
          SELECT d.partner_id AS "partnerId", d.school_id AS "schoolId", d.tenant_id AS "tenantId", EXISTS (SELECT 1 FROM n) AS fresh
            FROM devices d, relaxed WHERE d.id = ${device.id}`,
    );
    if (!row) throw refused('设备未注册');
    if (!row.fresh) throw replayed();
    request.device.placement = { partnerId: row.partnerId, schoolId: row.schoolId, tenantId: row.tenantId };
  });
}

export const replayed = () => refused('重复的请求（随机串已使用），已拒绝');

/** The terminal's school for usage calls: a terminal in stock has no users to record. */
export function deployedDevice(request: FastifyRequest): DeviceRef {
  const placement = request.device.placement;
  if (!placement?.schoolId || !placement.tenantId) throw forbidden('设备未部署到学校，不能登录或上报使用记录');
  return { id: request.device.id, partnerId: placement.partnerId, schoolId: placement.schoolId, tenantId: placement.tenantId };
}

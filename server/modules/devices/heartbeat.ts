// POST /api/device/v1/heartbeat: the terminal's state every minute. The beat joins the server's
// heartbeat queue (heartbeatWriter.ts), which records the nonce, updates the terminal and writes
// an event for each transition only, many beats to a statement when many arrive at once.
//
// POST /api/device/v1/heartbeats: a terminal relays the beats of its partner's terminals (a school
// gateway, a terminal that buffered its neighbours' beats while the network was down), up to
// MAX_RELAYED_BEATS in one request. The relay signs the request as any device request; each beat
// in it is signed by its own terminal exactly as that terminal would sign its own heartbeat, so a
// relay cannot make up a beat, and a beat's nonce is spent whichever way it arrived. Each beat is
// checked as a heartbeat is (clock window, serial, signature, then its nonce), counted against its
// own terminal's heartbeat limit and written through the same queue, so the events, alarms and
// live events are those of the same beats sent one by one. A beat of a terminal that another
// partner owns is refused. Every beat gets its own answer; one refused beat does not refuse the rest.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { ApiError, ok } from '../../http/envelope';
import { CLOCK_SKEW_SECONDS, DEVICE_LIMIT_NOUNS, DEVICE_RATE_LIMITS, MAX_RELAYED_BEATS } from '../../../src/domain/devices';
import { replayed } from './auth';
import { heartbeatWriter, type BeatResult } from './heartbeatWriter';
import { tooFrequent, type WindowLimiter } from './limits';
import { canonicalRequest, HEARTBEAT_PATH, heartbeatBody, signatureMatches, signCanonical } from './signature';

export const RELAYED_HEARTBEATS_PATH = '/api/device/v1/heartbeats';

const State = {
  paperLeft: Type.Integer({ minimum: 0, maximum: 10_000 }),
  jammed: Type.Boolean(),
  firmware: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9A-Za-z._-]+$' }),
};

const Heartbeat = Type.Object(State);

const RelayedBeat = Type.Object(
  {
    serial: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9-]+$' }),
    /** Unix seconds, as the terminal's X-Device-Timestamp would have said. */
    timestamp: Type.Integer({ minimum: 0, maximum: 999_999_999_999 }),
    nonce: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
    signature: Type.String({ minLength: 64, maxLength: 64, pattern: '^[0-9a-fA-F]+$' }),
    ...State,
  },
  { additionalProperties: false },
);

const RelayedBeats = Type.Object({ beats: Type.Array(RelayedBeat, { minItems: 1, maxItems: MAX_RELAYED_BEATS }) }, { additionalProperties: false });

const RELAY_LABELS = { beats: '心跳', serial: '设备编号', timestamp: '时间戳', nonce: '随机串', signature: '签名' };

/** One relayed beat's answer: 200 with its events, or the refusal its own heartbeat would get. */
export interface RelayedResult {
  serial: string;
  nonce: string;
  code: number;
  msg: string;
  events?: string[];
}

const heartbeatRoutes: FastifyPluginAsyncTypebox<{ limiter: WindowLimiter }> = async (app, { limiter }) => {
  const beats = heartbeatWriter(app.db, app.liveBus);
  app.post(HEARTBEAT_PATH, { config: { public: true, deviceNonceInline: true, deviceLimit: 'heartbeat' }, schema: { body: Heartbeat } }, async (request) => {
    const { paperLeft, jammed, firmware } = request.body;
    const result = await beats.write({ deviceId: request.device.id, nonce: request.device.nonce, paperLeft, jammed, firmware });
    if (result.outcome === 'replayed') throw replayed();
    if (result.outcome === 'unknown') throw new ApiError(401, '设备未注册');
    return ok({ serverTime: new Date().toISOString(), events: result.events });
  });

  app.post(
    RELAYED_HEARTBEATS_PATH,
    { config: { public: true, deviceLimit: 'heartbeats', fieldLabels: RELAY_LABELS }, schema: { body: RelayedBeats } },
    async (request) => {
      const relayPartner = request.device.placement!.partnerId;
      const list = request.body.beats;
      const serials = [...new Set(list.map((b) => b.serial))];
      // The batch's terminals in one round trip: the secrets cache holds no owner, and an owner
      // changes when a partner hands terminals to a sub-partner.
      const known = new Map(
        (
          await rows<{ id: number; serial: string; secret: string; partnerId: number }>(app.db, sql`
            SELECT id, serial, secret, partner_id AS "partnerId" FROM devices WHERE serial IN (${sql.join(serials.map((s) => sql`${s}`), sql`, `)})`)
        ).map((d) => [d.serial, d]),
      );
      const now = Date.now() / 1000;
      const results: RelayedResult[] = [];
      const writes: { at: number; promise: Promise<BeatResult> }[] = [];
      for (const b of list) {
        const answer = (code: number, msg: string) => results.push({ serial: b.serial, nonce: b.nonce, code, msg });
        const device = known.get(b.serial);
        if (Math.abs(now - b.timestamp) > CLOCK_SKEW_SECONDS) answer(401, '请求时间与服务器相差超过5分钟，请校准设备时钟');
        else if (!device) answer(401, '设备未注册');
        else if (!signatureMatches(signCanonical(device.secret, canonicalRequest('POST', HEARTBEAT_PATH, String(b.timestamp), b.nonce, heartbeatBody(b))), b.signature)) {
          answer(401, '设备签名校验失败');
        } else if (device.partnerId !== relayPartner) answer(403, '该设备不属于本合作伙伴，不能代为上报心跳');
        else {
          const taken = limiter.take(`heartbeat:${device.id}`, DEVICE_RATE_LIMITS.heartbeat);
          if (!taken.allowed) {
            answer(429, tooFrequent(`本终端${DEVICE_LIMIT_NOUNS.heartbeat}`, taken.retryAfter).message);
          } else {
            writes.push({ at: results.length, promise: beats.write({ deviceId: device.id, nonce: b.nonce, paperLeft: b.paperLeft, jammed: b.jammed, firmware: b.firmware }) });
            answer(200, '操作成功');
          }
        }
      }
      // Queued together, the accepted beats go out as one statement (or a few, past its batch size).
      const written = await Promise.all(writes.map((w) => w.promise));
      let recorded = 0;
      written.forEach((r, i) => {
        const slot = results[writes[i].at];
        if (r.outcome === 'recorded') {
          slot.events = r.events;
          recorded++;
        } else Object.assign(slot, r.outcome === 'replayed' ? { code: 401, msg: replayed().message } : { code: 401, msg: '设备未注册' });
      });
      return ok({ serverTime: new Date().toISOString(), received: list.length, recorded, results });
    },
  );
};
export default heartbeatRoutes;

// Registering a terminal (登记设备) and rotating its secret (重置密钥) in 设备管理. Each terminal
// gets its own random secret (server/modules/devices/signature.ts newDeviceSecret); the partner
// sees it once, in the answer to the call that made it, to write into the terminal. The server
// keeps it to check the terminal's signatures, and no list, detail or export carries it. A rotated
// secret stops working at once: the device API's cache of it is invalidated in every process.
import { recordAudit } from '../audit/record';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import { rows } from '../../db/query';
import { conflict, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { DEVICE_MODELS } from '../../../src/domain/partner';
import { DEVICE_SERIAL_PATTERN, DeviceSecretSchema } from '../../../src/domain/devices';
import { newDeviceSecret } from '../devices/signature';
import { anyPartner, checkDevice, scopeOf } from './scope';

const BASE = '/api/wrongbook/v1.0/partner/devices';

const Register = Type.Object({
  serial: Type.String({ minLength: 1, maxLength: 32, pattern: DEVICE_SERIAL_PATTERN.source }),
  model: Type.Union(DEVICE_MODELS.map((m) => Type.Literal(m.value))),
});

const capacityOf = (model: string) => (model === 'XZ-P200' ? 1000 : 500);

const deviceSecretRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const reply = { 200: EnvelopeSchema(DeviceSecretSchema) };

  /** A new terminal in the caller's own stock (not deployed), with its first secret. */
  app.post(`${BASE}/register`, { preHandler: anyPartner, schema: { body: Register, response: reply } }, async (request) => {
    const { serial, model } = request.body;
    const scope = await scopeOf(request);
    const secret = newDeviceSecret();
    const device = await db
      .transaction(async (tx) => {
        const tdb = tx as unknown as Db;
        // Firmware '' until the first heartbeat says it (no 固件升级 event for that first report);
        // paper full, as terminals in stock are seeded, until the sensor reports.
        const [row] = await rows<{ id: number }>(
          tdb,
          sql`INSERT INTO devices (serial, model, partner_id, secret, firmware, paper_capacity, paper_left)
              VALUES (${serial}, ${model}, ${scope.partnerId}, ${secret}, '', ${capacityOf(model)}, ${capacityOf(model)}) RETURNING id`,
        );
        await tdb.execute(sql`INSERT INTO device_events (device_id, kind, detail) VALUES (${row.id}, 'registered', jsonb_build_object('by', ${request.principal.name}::text))`);
        await recordAudit(tdb, request, { action: 'register', kind: 'terminal', recordId: serial, summary: `登记终端 ${serial}（${model}）` });
        return row;
      })
      .catch((error) => {
        if (isUniqueViolation(error)) throw conflict(`设备编号${serial}已登记，不能重复登记`);
        throw error;
      });
    return ok({ deviceId: device.id, serial, secret }, `已登记设备${serial}，请将密钥写入终端`);
  });

  /** A new secret for a terminal of the subtree; the old one is refused from now on. */
  app.post(`${BASE}/rotateSecret`, { preHandler: anyPartner, schema: { body: Type.Object({ deviceId: Id }), response: reply } }, async (request) => {
    const device = await checkDevice(db, await scopeOf(request), request.body.deviceId);
    const secret = newDeviceSecret();
    const [row] = await db.transaction(async (tx) => {
      const tdb = tx as unknown as Db;
      const updated = await rows<{ serial: string }>(tdb, sql`UPDATE devices SET secret = ${secret} WHERE id = ${device.id} RETURNING serial`);
      await tdb.execute(sql`INSERT INTO device_events (device_id, kind, detail) VALUES (${device.id}, 'secretRotated', jsonb_build_object('by', ${request.principal.name}::text))`);
      await recordAudit(tdb, request, { action: 'rotateSecret', kind: 'terminal', recordId: updated[0]?.serial ?? null, summary: `重置终端 ${updated[0]?.serial ?? device.id} 的密钥` });
      return updated;
    });
    // After the commit: the next request signed with the old secret finds no cached entry.
    await app.deviceSecrets.invalidate(device.id);
    return ok({ deviceId: device.id, serial: row.serial, secret }, `已重置设备${row.serial}的密钥，旧密钥已失效`);
  });
};

export default deviceSecretRoutes;

// The device simulator against the in-process test app (app.inject), so API tests get 90 days of
// terminal usage through the real device API without a server process. The demo terminals'
// secrets are random (seeded): read from the test database.
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/query';
import { DeviceClient, retryAfterSeconds, type DeviceReply, type Transport } from '../../server/devices/client';
import { demoTerminalSecrets } from '../../server/devices/demoSecrets';
import { simulate, type SimulateOptions, type SimulateResult } from '../../server/devices/simulator';
import { demoSerial } from '../../server/seed/partners';

export function injectTransport(app: FastifyInstance): Transport {
  return async (method, path, body, headers) => {
    const res = await app.inject({ method: method as 'GET' | 'POST', url: path, headers, payload: body || undefined });
    return { status: res.statusCode, body: res.json() as DeviceReply['body'], retryAfter: retryAfterSeconds(res.headers['retry-after']) };
  };
}

export const simulateUsage = async (app: FastifyInstance, options?: Omit<SimulateOptions, 'secrets'>): Promise<SimulateResult> =>
  simulate(injectTransport(app), { ...options, secrets: await demoTerminalSecrets(app.db) });

/** A terminal's secret as the database holds it now. */
export async function deviceSecret(app: FastifyInstance, serial: string): Promise<string> {
  const [row] = await rows<{ secret: string }>(app.db, sql`SELECT secret FROM devices WHERE serial = ${serial}`);
  if (!row) throw new Error(`no terminal ${serial}`);
  return row.secret;
}

/** The demo terminal number `no` (1-based, seed order) as a signing client of the test app. */
export const demoDevice = async (app: FastifyInstance, no: number) => new DeviceClient(demoSerial(no), await deviceSecret(app, demoSerial(no)), injectTransport(app));

// The device simulator against the in-process test app (app.inject), so API tests get 90 days of
// terminal usage through the real device API without a server process.
import type { FastifyInstance } from 'fastify';
import { DeviceClient, type DeviceReply, type Transport } from '../../server/devices/client';
import { simulate, type SimulateOptions, type SimulateResult } from '../../server/devices/simulator';
import { demoDeviceSecret, demoSerial } from '../../server/seed/partners';

export function injectTransport(app: FastifyInstance): Transport {
  return async (method, path, body, headers) => {
    const res = await app.inject({ method: method as 'GET' | 'POST', url: path, headers, payload: body || undefined });
    return { status: res.statusCode, body: res.json() as DeviceReply['body'] };
  };
}

export const simulateUsage = (app: FastifyInstance, options?: SimulateOptions): Promise<SimulateResult> => simulate(injectTransport(app), options);

/** The demo terminal number `no` (1-based, seed order) as a signing client of the test app. */
export const demoDevice = (app: FastifyInstance, no: number) => new DeviceClient(demoSerial(no), demoDeviceSecret(demoSerial(no)), injectTransport(app));

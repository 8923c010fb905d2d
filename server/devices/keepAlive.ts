// Keeps the demo fleet alive: in the demo (not a school's production install) nothing else beats
// for the demo terminals once the simulator has run, so three and a half minutes after a start
// every terminal would read 离线. This beats once a minute, through the real device API (signed,
// a fresh nonce each time), for every demo terminal that stands in a school and has beaten before,
// reporting the state it last reported: no paper, jam or firmware event is made up, and a terminal
// that had gone offline comes back with its 'online' event. The terminals the simulator keeps
// silent (the demo's 离线 examples) and those still in stock never beat, and stay offline.
// Started by server/main.ts only (DEMO_DEVICES=0 leaves it out, as the test servers do); a test
// that wants it calls keepDemoFleetAlive itself.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import { DEMO_DEVICE_COUNT, demoSerial } from '../seed/partners';
import { HEARTBEAT_SECONDS } from '../../src/domain/partner';
import { DeviceClient, type Transport } from './client';

export interface FleetKeepAlive {
  /** One round of beats; resolves to the number of terminals that beat. */
  beatOnce(): Promise<number>;
  /** No more rounds; resolves when the round in flight (if any) is done. */
  stop(): Promise<void>;
}

const DEMO_SERIALS = Array.from({ length: DEMO_DEVICE_COUNT }, (_, i) => demoSerial(i + 1));

export function keepDemoFleetAlive(db: Db, transport: Transport, options: { everyMs?: number; log?: (error: unknown) => void } = {}): FleetKeepAlive {
  let inFlight: Promise<number> | undefined;
  let stopped = false;

  const beatOnce = async (): Promise<number> => {
    const fleet = await rows<{ serial: string; secret: string; paperLeft: number; jammed: boolean; firmware: string }>(db, sql`
      SELECT serial, secret, paper_left AS "paperLeft", jammed, firmware FROM devices
       WHERE serial IN (${sql.join(DEMO_SERIALS.map((s) => sql`${s}`), sql`, `)})
         AND school_id IS NOT NULL AND last_heartbeat_at IS NOT NULL
       ORDER BY serial`);
    let beaten = 0;
    for (const d of fleet) {
      if (stopped) break;
      const client = new DeviceClient(d.serial, d.secret, transport);
      const reply = await client.deliver('POST', '/api/device/v1/heartbeat', { paperLeft: d.paperLeft, jammed: d.jammed, firmware: d.firmware });
      if (reply.body.success) beaten++;
    }
    return beaten;
  };

  const round = () => {
    if (stopped || inFlight) return;
    inFlight = beatOnce()
      .catch((error) => {
        options.log?.(error);
        return 0;
      })
      .finally(() => (inFlight = undefined));
  };
  const timer = setInterval(round, options.everyMs ?? HEARTBEAT_SECONDS * 1000);
  // The server's own handles decide when the process ends, not this timer.
  timer.unref();
  round();

  return {
    beatOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}

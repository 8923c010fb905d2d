// The fleet's live events (docs/api-alarms.md): a server process with 1,000 terminals registered
// and deployed through the partner API, 50 data-board event streams open (partner1, whose subtree
// holds every terminal, so each stream hears every beat), and every terminal beating through the
// signed device API at once. Latency: from sending a beat to each stream receiving its event.
import { performance } from 'node:perf_hooks';
import { DeviceClient, httpTransport } from '../server/devices/client';
import { startServer } from '../tests/support/serverProcess';
import { LIVE_STREAM_PATH } from '../src/domain/alarms';
import { percentile, type BenchRow } from './table';

const TERMINALS = Number(process.env.LIVE_BENCH_TERMINALS ?? 1000);
const STREAMS = 50;
const ROUNDS = 2;
const P = '/api/wrongbook/v1.0/partner';

export async function benchLiveEvents(): Promise<BenchRow[]> {
  // Far beyond a user's allowance of streams and a terminal's of beats: what is measured around.
  const server = await startServer({ env: { DEVICE_RATE_LIMITS: '0', LIVE_STREAMS_PER_USER: String(STREAMS), IN_PROCESS_WORKER: '0' } });
  const streams: AbortController[] = [];
  try {
    const login = await fetch(`${server.url}/api/juno/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'partner1', password: 'Demo@2026' }) });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const headers = { 'blade-auth': `bearer ${token}`, 'x-active-role': 'partner', 'content-type': 'application/json' };
    const call = async <T>(path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server.url}${path}`, { method: body ? 'POST' : 'GET', headers, body: body ? JSON.stringify(body) : undefined });
      const json = (await res.json()) as { success: boolean; msg: string; data: T };
      if (!json.success) throw new Error(`${path}: ${json.msg}`);
      return json.data;
    };
    console.error(`  registering ${TERMINALS} terminals…`);
    const school = (await call<{ schoolId: number; direct: boolean }[]>(`${P}/devices/schools`)).find((s) => s.direct)!;
    const transport = httpTransport(server.url);
    const terminals: { id: number; client: DeviceClient }[] = [];
    for (let i = 0; i < TERMINALS; i++) {
      const serial = `BENCH-${String(i + 1).padStart(5, '0')}`;
      const r = await call<{ deviceId: number; secret: string }>(`${P}/devices/register`, { serial, model: 'XZ-P100' });
      terminals.push({ id: r.deviceId, client: new DeviceClient(serial, r.secret, transport) });
    }
    for (let i = 0; i < terminals.length; i += 200) {
      await call(`${P}/devices/bind`, { deviceIds: terminals.slice(i, i + 200).map((t) => t.id), schoolId: school.schoolId });
    }
    // A first beat each, before the streams: the terminals' first reports (firmware, paper) are
    // transitions; the measured rounds are the steady state.
    await pool(terminals, 32, (t) => t.client.call('POST', '/api/device/v1/heartbeat', { paperLeft: 400, jammed: false, firmware: '2.4.0' }));

    const sentAt = new Map<number, number>();
    const latencies: number[] = [];
    let received = 0;
    const ready: Promise<void>[] = [];
    for (let s = 0; s < STREAMS; s++) {
      const controller = new AbortController();
      streams.push(controller);
      ready.push(
        new Promise<void>((resolve, reject) => {
          void fetch(`${server.url}${LIVE_STREAM_PATH}`, { headers, signal: controller.signal })
            .then(async (res) => {
              if (res.status !== 200 || !res.body) throw new Error(`stream ${res.status}`);
              resolve();
              const decoder = new TextDecoder();
              let text = '';
              for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
                const now = performance.now();
                text += decoder.decode(chunk, { stream: true });
                let end: number;
                while ((end = text.indexOf('\n\n')) >= 0) {
                  const block = text.slice(0, end);
                  text = text.slice(end + 2);
                  const data = block.split('\n').find((l) => l.startsWith('data: '));
                  if (!data) continue;
                  const event = JSON.parse(data.slice(6)) as { deviceId: number };
                  const sent = sentAt.get(event.deviceId);
                  if (sent !== undefined) {
                    latencies.push(now - sent);
                    received++;
                  }
                }
              }
            })
            .catch((error) => (controller.signal.aborted ? undefined : reject(error)));
        }),
      );
    }
    await Promise.all(ready);
    console.error(`  ${STREAMS} streams open; ${ROUNDS} rounds of ${TERMINALS} beats…`);
    const began = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      await pool(terminals, 64, async (t) => {
        sentAt.set(t.id, performance.now());
        await t.client.call('POST', '/api/device/v1/heartbeat', { paperLeft: 400, jammed: false, firmware: '2.4.0' });
      });
    }
    const beatSeconds = (performance.now() - began) / 1000;
    const expected = ROUNDS * TERMINALS * STREAMS;
    const until = performance.now() + 10_000;
    while (received < expected && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    return [
      { name: 'live_beat_to_event_p95_ms', value: Math.round(percentile(latencies, 0.95)), unit: 'ms', target: '≤ 2000' },
      { name: 'live_beat_to_event_p50_ms', value: Math.round(percentile(latencies, 0.5)), unit: 'ms', target: '' },
      { name: 'live_events_missing', value: expected - received, unit: '', target: '0' },
      { name: 'live_beats_per_s', value: Math.round((ROUNDS * TERMINALS) / beatSeconds), unit: '/s', target: '' },
    ];
  } finally {
    streams.forEach((c) => c.abort());
    await server.stop();
  }
}

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await run(items[next++]);
    }),
  );
}

// Requests start in arrival order, a few per turn of the event loop (server/http/admission.ts): under
// load, people who connect anew (a burst of teachers opening the app) are served after about the
// requests already waiting, not after every busy connection has been served once per new arrival.
// Counted in responses, not in milliseconds: which requests were served before the newcomers.
import Fastify from 'fastify';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { admitInArrivalOrder } from '../../server/http/admission';

const BUSY = 20;
const NEWCOMERS = 20;
/** Each request holds the thread this long, as a query of the embedded database does. */
const WORK_MS = 3;

async function serverWith(admission: boolean) {
  const app = Fastify();
  if (admission) admitInArrivalOrder(app);
  app.get('/page', async () => {
    const until = performance.now() + WORK_MS;
    while (performance.now() < until);
    return { records: [] };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

/** A kept-alive connection sending one request after another; `onResponse` for each answer. */
function client(port: number, onResponse: () => boolean): Socket {
  const socket = connect(port, '127.0.0.1');
  const send = () => socket.write('GET /page HTTP/1.1\r\nHost: localhost\r\n\r\n');
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('connect', send);
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    // One small JSON answer each: complete once its body is in.
    while (buffered.includes('{"records":[]}')) {
      buffered = buffered.slice(buffered.indexOf('{"records":[]}') + '{"records":[]}'.length);
      if (onResponse()) send();
    }
  });
  socket.on('error', () => undefined);
  return socket;
}

/** `promise`, or a failure after `ms`: a stalled queue fails the test and still closes the sockets. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Responses served between the newcomers' arrival and the last newcomer's first answer. */
async function servedBeforeLastNewcomer(admission: boolean): Promise<number> {
  const { app, port } = await serverWith(admission);
  const sockets: Socket[] = [];
  try {
    let served = 0;
    let warm = 0;
    const warmedUp = new Promise<void>((ready) => {
      for (let i = 0; i < BUSY; i++) {
        sockets.push(
          client(port, () => {
            served++;
            if (++warm === BUSY * 3) ready();
            return true;
          }),
        );
      }
    });
    await within(warmedUp, 10_000, 'busy connections');
    const arrivedAt = served;
    let answered = 0;
    let last = 0;
    const allAnswered = new Promise<void>((done) => {
      for (let i = 0; i < NEWCOMERS; i++) {
        sockets.push(
          client(port, () => {
            served++;
            if (++answered === NEWCOMERS) {
              last = served - arrivedAt;
              done();
            }
            return false;
          }),
        );
      }
    });
    await within(allAnswered, 10_000, 'new connections');
    return last;
  } finally {
    sockets.forEach((s) => s.destroy());
    await app.close();
  }
}

describe('admission in arrival order', () => {
  it('serves a burst of new connections after about the requests already waiting', async () => {
    const before = await servedBeforeLastNewcomer(true);
    // Each of the 20 busy connections has one request waiting and asks again when answered; the
    // newcomers are accepted one per turn. In arrival order the last is answered after about
    // 20 + 2 × 20 responses; without the queue every turn served every busy connection (≈ 20 × 20).
    expect(before).toBeLessThan(3 * (BUSY + NEWCOMERS));
  });

  // The premise of the test above, on this Node: one new connection accepted per turn (libuv), so
  // without the queue every turn served all the busy connections before the next newcomer got in.
  it('without it, the last newcomer waits behind many rounds of the busy connections (what the queue is for)', async () => {
    const before = await servedBeforeLastNewcomer(false);
    expect(before).toBeGreaterThan(3 * (BUSY + NEWCOMERS));
  });
});

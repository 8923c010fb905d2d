// Requests start in the order they arrived, a few per turn of the event loop.
//
// Node accepts one new connection per turn of its event loop (libuv stops its accept loop after
// each connection it hands over). Before this, a turn under load served every request whose socket
// was readable, to the end: on PGlite, where a query runs in this thread, 50 busy connections made
// each turn about 100 ms on this 2-core machine. So a burst of new connections (teachers opening
// the app as a lesson starts, a browser opening its six) was accepted one per 100 ms, and the last
// waited seconds before the server read its first request. Measured with wrk, 50 connections on
// the student list: p99 1.2–1.6 s, every slow request the first of a new connection, while
// requests on open connections took about 100 ms.
//
// With few requests let in per turn, a turn stays short, new connections are accepted and read
// within milliseconds, and requests wait in one queue in arrival order. How many: a turn that took
// less than TURN_MS (its requests' work and Node's polling) lets twice as many in next time, a longer
// one half as many. On PGlite, where one request holds the thread about 2 ms, that is one or two a
// turn; on PostgreSQL a request only starts here and waits for the database, so dozens go in a turn
// and stay in flight at once (one a turn held the heartbeats there to the number of turns a second).
import type { FastifyInstance, HookHandlerDoneFunction } from 'fastify';

const TURN_MS = 2;
const MOST_A_TURN = 64;

export function admitInArrivalOrder(app: FastifyInstance): void {
  const waiting: HookHandlerDoneFunction[] = [];
  let scheduled = false;
  let batch = 1;
  let lastTurn = 0;
  const letIn = () => {
    const now = performance.now();
    batch = now - lastTurn < TURN_MS ? Math.min(batch * 2, MOST_A_TURN) : Math.max(1, batch >> 1);
    lastTurn = now;
    const going = waiting.splice(0, batch);
    // The rest go in on a later turn, after Node has polled for connections and data.
    if (waiting.length) setImmediate(letIn);
    else scheduled = false;
    for (const done of going) {
      // Fastify runs the next hook inside its own try/catch; should that ever throw, the rest of the
      // batch still goes in and the process stays up.
      try {
        done();
      } catch (error) {
        app.log.error({ err: error }, '请求排队后继续处理时出错');
      }
    }
  };
  app.addHook('onRequest', (_request, _reply, done) => {
    waiting.push(done);
    if (!scheduled) {
      scheduled = true;
      setImmediate(letIn);
    }
  });
}

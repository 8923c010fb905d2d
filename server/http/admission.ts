// Requests start in the order they arrived, one per turn of the event loop.
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
// With one request let in per turn, a turn lasts about one request, new connections are accepted
// and read within milliseconds, and requests wait in one queue in arrival order. On PostgreSQL a
// request only starts here (its queries run in the database), so many stay in flight at once.
import type { FastifyInstance, HookHandlerDoneFunction } from 'fastify';

export function admitInArrivalOrder(app: FastifyInstance): void {
  const waiting: HookHandlerDoneFunction[] = [];
  let scheduled = false;
  const letOneIn = () => {
    const next = waiting.shift()!;
    // The next one goes in on the next turn, after Node has polled for connections and data.
    if (waiting.length) setImmediate(letOneIn);
    else scheduled = false;
    next();
  };
  app.addHook('onRequest', (_request, _reply, done) => {
    waiting.push(done);
    if (!scheduled) {
      scheduled = true;
      setImmediate(letOneIn);
    }
  });
}

// GET /api/wrongbook/v1.0/partner/events/stream: the fleet's live events for a partner's open
// pages, as server-sent events (text/event-stream). The web app reads it with fetch, which sends
// the session header like every other call (EventSource cannot), so the auth hook checks it as
// anywhere. Each stream hears only its subtree's terminals; a user holds at most
// MAX_STREAMS_PER_USER; a comment line every STREAM_PING_SECONDS keeps proxies from closing it and
// notices a closed socket; it ends after STREAM_MAX_SECONDS (the page opens a new one), so a
// revoked session or a changed subtree is noticed within minutes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../http/envelope';
import { LIVE_STREAM_PATH, MAX_STREAMS_PER_USER, STREAM_MAX_SECONDS, STREAM_PING_SECONDS, type LiveEvent } from '../../../src/domain/alarms';
import { anyPartner, scopeOf } from './scope';

const liveStreamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const open = new Map<number, number>();
  const closers = new Set<() => void>();
  // The server closing ends every stream first (preClose: before it waits for its connections).
  app.addHook('preClose', async () => {
    for (const close of [...closers]) close();
  });

  app.get(LIVE_STREAM_PATH, { preHandler: anyPartner }, async (request, reply) => {
    const userId = request.principal.userId;
    const scope = await scopeOf(request);
    const max = app.config.liveStreamsPerUser ?? MAX_STREAMS_PER_USER;
    if ((open.get(userId) ?? 0) >= max) {
      throw new ApiError(429, `实时连接过多（每个账号最多${max}个），请关闭其他页面后重试`, { 'retry-after': '30' });
    }
    open.set(userId, (open.get(userId) ?? 0) + 1);
    const subtree = new Set(scope.subtreeIds);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    // The retry hint, and a first line so the client knows it is connected.
    res.write(`retry: 3000\n: connected\n\n`);
    let closed = false;
    const send = (event: LiveEvent) => {
      if (closed || !subtree.has(event.partnerId)) return;
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const unsubscribe = app.liveBus.subscribe(send);
    const ping = setInterval(() => res.write(`: ping\n\n`), STREAM_PING_SECONDS * 1000);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      clearTimeout(lifetime);
      unsubscribe();
      closers.delete(close);
      const left = (open.get(userId) ?? 1) - 1;
      if (left > 0) open.set(userId, left);
      else open.delete(userId);
      res.end();
    };
    const lifetime = setTimeout(close, STREAM_MAX_SECONDS * 1000);
    closers.add(close);
    res.on('close', close);
    res.on('error', close);
  });
};
export default liveStreamRoutes;

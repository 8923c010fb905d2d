// The server's lazy schema compilers (server/http/lazySchemas.ts) behave as Fastify's own: the same
// coercion (a scalar root included, which ajv writes back through the request), the same refusals
// with their reasons, the same replies, compared on one set of routes built both ways.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AJV_OPTIONS, lazyCompilersFactory } from '../../server/http/lazySchemas';

async function appWith(lazy: boolean) {
  const app = Fastify({ ajv: AJV_OPTIONS, ...(lazy ? { schemaController: { compilersFactory: lazyCompilersFactory() } } : {}) });
  app.post('/count', { schema: { body: { type: 'integer', maximum: 9 } } }, async (request) => ({ type: typeof request.body, body: request.body }));
  app.get('/page', { schema: { querystring: { type: 'object', properties: { size: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['size'] } } }, async (request) => request.query);
  app.get(
    '/reply',
    { schema: { response: { 200: { type: 'object', properties: { name: { type: 'string' } } } } } },
    async () => ({ name: '一年级（1）班', secret: 'not in the reply schema' }),
  );
  await app.ready();
  return app;
}

const calls = [
  { method: 'POST' as const, url: '/count', headers: { 'content-type': 'application/json' }, payload: '"5"' },
  { method: 'POST' as const, url: '/count', headers: { 'content-type': 'application/json' }, payload: '"12"' },
  { method: 'POST' as const, url: '/count', headers: { 'content-type': 'application/json' }, payload: '"五"' },
  { method: 'GET' as const, url: '/page?size=20' },
  { method: 'GET' as const, url: '/page?size=0' },
  { method: 'GET' as const, url: '/page' },
  { method: 'GET' as const, url: '/reply' },
];

describe('lazy schema compilers', () => {
  it('answer every call as Fastify’s own compilers do', async () => {
    const [eager, lazy] = await Promise.all([appWith(false), appWith(true)]);
    for (const call of calls) {
      const [a, b] = await Promise.all([eager.inject(call), lazy.inject(call)]);
      expect({ status: b.statusCode, body: b.json() }, `${call.method} ${call.url} ${call.payload ?? ''}`).toEqual({ status: a.statusCode, body: a.json() });
    }
    // What the comparison rests on: a coerced scalar root, a refusal with its reason, a reply trimmed to its schema.
    expect((await lazy.inject(calls[0])).json()).toEqual({ type: 'number', body: 5 });
    expect((await lazy.inject(calls[4])).json().message).toMatch(/size must be >= 1/);
    expect((await lazy.inject(calls[6])).json()).toEqual({ name: '一年级（1）班' });
    await Promise.all([eager.close(), lazy.close()]);
  });
});

// Security headers on every reply (@fastify/helmet), and no caching of API replies: they carry
// students' personal data, and a shared school computer must not keep them.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The policy the built web app runs under (tests/e2e/csp.test.ts signs in as each kind of user and
 * expects no violation). Scripts only from our own files, never inline. Styles allow inline
 * because MUI (emotion) writes its <style> elements at run time. Images and frames allow blob:
 * for previews of uploaded files, fetched with the session and shown from memory.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameSrc: ['blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** @fastify/helmet's options for this product. */
const HELMET_OPTIONS = {
  // Schools also run the product over plain HTTP on their own network: no upgrade-insecure-requests.
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  // The product's host name may share its parent domain with the school's other sites.
  strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
};

/**
 * The headers @fastify/helmet sets with these options, read once from a probe app. The plugin
 * builds helmet's middleware anew on every request (its options parsed, its policy text joined),
 * which cost as much CPU as the rest of Fastify's own work on the student list; the headers are
 * the same on every reply, so they are worked out once and copied.
 */
async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify();
  await probe.register(helmet, HELMET_OPTIONS);
  probe.get('/', async () => 'ok');
  const res = await probe.inject({ url: '/' });
  await probe.close();
  const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(Object.entries(res.headers).flatMap(([name, value]) => (own.has(name) || value === undefined ? [] : [[name, String(value)]])));
}

export default fp(async function securityHeaders(app: FastifyInstance) {
  const headers = await helmetHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});

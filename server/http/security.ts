// Security headers on every reply (@fastify/helmet), and no caching of API replies: they carry
// students' personal data, and a shared school computer must not keep them.
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export default fp(async function securityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    // Schools also run the product over plain HTTP on their own network: no upgrade-insecure-requests.
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The product's host name may share its parent domain with the school's other sites.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    return payload;
  });
});

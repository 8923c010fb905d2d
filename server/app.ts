// The Fastify app factory: plugins in layers (infrastructure → auth → service modules → static web).
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './config';
import type { Db } from './db';
import { registerEnvelope } from './http/envelope';
import auth from './auth/plugin';
import { NO_CACHE, type PrincipalStore } from './auth/principalCache';
import juno from './modules/juno';
import vesta from './modules/vesta';
import wrongbook from './modules/wrongbook';
import correct from './modules/correct';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: AppConfig;
  }
}

export interface BuildOptions {
  db: Db;
  config: AppConfig;
  /** Serve the built web app from this folder when it exists. */
  webRoot?: string;
  logger?: boolean;
  /** Recently seen sessions in memory (see auth/principalCache.ts); none by default. */
  principals?: PrincipalStore;
  /** Called when work is queued, to wake an in-process worker. */
  wakeWorkers?: () => void;
}

export async function buildApp({ db, config, webRoot, logger = false, principals = NO_CACHE, wakeWorkers = () => undefined }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: true,
    bodyLimit: 2 * 1024 * 1024,
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('principals', principals);
  app.decorate('wakeWorkers', wakeWorkers);
  registerEnvelope(app);
  await app.register(auth);
  await app.register(juno);
  await app.register(vesta);
  await app.register(wrongbook);
  await app.register(correct);

  if (webRoot && existsSync(join(webRoot, 'index.html'))) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, { root: webRoot, wildcard: true });
  }
  return app;
}

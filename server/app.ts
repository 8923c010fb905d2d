// The Fastify app factory: plugins in layers (infrastructure → auth → service modules → static web).
import { ROUTES } from '../src/menu/routes';
import { findRoute } from '../src/domain/permissions';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './config';
import type { Db } from './db';
import { registerEnvelope, sendClientError, sendFrameworkError } from './http/envelope';
import { registerInputRules } from './http/input';
import { admitInArrivalOrder } from './http/admission';
import { loggerOptions, RequestLog, type LogOptions } from './http/logging';
import securityHeaders from './http/security';
import auth from './auth/plugin';
import { NO_CACHE, type PrincipalStore } from './auth/principalCache';
import { NO_LOOKUP_CACHE, type LookupStore } from './cache/lookupCache';
import { DeviceSecretCache } from './modules/devices/secretCache';
import { LiveBus } from './modules/devices/live';
import juno from './modules/juno';
import vesta from './modules/vesta';
import wrongbook from './modules/wrongbook';
import correct from './modules/correct';
import minerva from './modules/minerva';
import analysis from './modules/analysis';
import mercury from './modules/mercury';
import partner from './modules/partner';
import devices from './modules/devices';
import heartVoices from './modules/heartVoices';
import crud from './modules/crud';
import audit from './modules/audit';
import family from './modules/family';
import { AJV_OPTIONS, lazyCompilersFactory } from './http/lazySchemas';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** The replica for heavy reads (analysis, boards, exports) when one is configured; else `db`. */
    readDb: Db;
    config: AppConfig;
    lookups: LookupStore;
    /** The sign-in limits' clock; null: the database's. */
    signInClock: (() => Date) | null;
    /** Terminals' serial → id and secret (modules/devices/secretCache.ts); rotating a secret invalidates it. */
    deviceSecrets: DeviceSecretCache;
    /** The fleet's live events for the partners' event streams (modules/devices/live.ts). */
    liveBus: LiveBus;
  }
}

export interface BuildOptions {
  db: Db;
  /** A streaming replica of `db` for analysis, boards and exports (DATABASE_READ_URL); `db` if omitted. */
  readDb?: Db;
  config: AppConfig;
  /** Serve the built web app from this folder when it exists. */
  webRoot?: string;
  /** The request and error log (server/http/logging.ts); off unless given (tests stay quiet). */
  logger?: boolean | LogOptions;
  /** Told of every route as it is registered (tests enumerate the API with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Recently seen sessions in memory (see auth/principalCache.ts); none by default. */
  principals?: PrincipalStore;
  /** The shell's lookups in memory (see cache/lookupCache.ts); none by default. */
  lookups?: LookupStore;
  /** Called when work is queued, to wake an in-process worker. */
  wakeWorkers?: () => void;
  /** A clock for the sign-in limits instead of the database's (tests move time with it). */
  signInClock?: () => Date;
  /** Terminals' secrets in memory; this process's own cache unless given (with other processes' invalidations). */
  deviceSecrets?: DeviceSecretCache;
  /** The fleet's live events; this process's own bus unless given (main.ts shares it between processes). */
  liveBus?: LiveBus;
}

export async function buildApp({ db, readDb, config, webRoot, logger = false, onRoute, principals = NO_CACHE, lookups = NO_LOOKUP_CACHE, wakeWorkers = () => undefined, signInClock, deviceSecrets = new DeviceSecretCache(), liveBus = new LiveBus() }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === false ? false : loggerOptions(logger === true ? {} : logger),
    logController: new RequestLog(),
    clientErrorHandler: sendClientError,
    frameworkErrors: sendFrameworkError,
    // X-Forwarded-For only from the proxies TRUST_PROXY names: anyone else could forge their address.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    bodyLimit: 2 * 1024 * 1024,
    ajv: AJV_OPTIONS,
    // Each route's schemas compile on its first request, not all at start (http/lazySchemas.ts).
    schemaController: { compilersFactory: lazyCompilersFactory() },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // First of all hooks: nothing else runs for a request before its turn (http/admission.ts).
  admitInArrivalOrder(app);
  app.decorate('db', db);
  app.decorate('readDb', readDb ?? db);
  app.decorate('config', config);
  app.decorate('principals', principals);
  app.decorate('lookups', lookups);
  app.decorate('signInClock', signInClock ?? null);
  app.decorate('deviceSecrets', deviceSecrets);
  app.decorate('liveBus', liveBus);
  // Every successful write of the school-structure service (vesta) may change what the shell's
  // lookups return for that tenant; invalidate before the reply leaves, so the next read is fresh.
  app.addHook('onSend', (request, reply, payload, done) => {
    const tenantId = request.principal?.tenantId;
    if (request.method === 'GET' || reply.statusCode >= 400 || !tenantId || !request.url.startsWith('/api/vesta/')) return done(null, payload);
    app.lookups.invalidateTenant(tenantId).then(() => done(null, payload), done);
  });
  app.decorate('wakeWorkers', wakeWorkers);
  const servesWeb = Boolean(webRoot && existsSync(join(webRoot, 'index.html')));
  // A screen's address typed without '#' opens that screen (the client's route table says which).
  registerEnvelope(app, servesWeb ? { isAppPath: (path) => !!findRoute(ROUTES, path) } : {});
  registerInputRules(app);
  if (onRoute) app.addHook('onRoute', onRoute);
  // Before auth, so refusals carry the headers too.
  await app.register(securityHeaders);
  await app.register(auth);
  await app.register(juno);
  await app.register(vesta);
  await app.register(wrongbook);
  await app.register(correct);
  await app.register(minerva);
  await app.register(analysis);
  await app.register(mercury);
  await app.register(partner);
  await app.register(devices);
  await app.register(heartVoices);
  await app.register(crud);
  await app.register(audit);
  await app.register(family);

  if (webRoot && servesWeb) {
    const { default: fastifyStatic } = await import('@fastify/static');
    await app.register(fastifyStatic, { root: webRoot, wildcard: true });
  }
  return app;
}

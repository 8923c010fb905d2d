// Builds the real app on a fresh database for API tests, and signs demo users in through HTTP.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildApp } from '../../server/app';
import { PrincipalCache } from '../../server/auth/principalCache';
import { LookupCache } from '../../server/cache/lookupCache';
import { publisher } from '../../server/cache/invalidations';
import type { AppConfig } from '../../server/config';
import type { Database } from '../../server/db';
import type { LogOptions } from '../../server/http/logging';
import { DEMO_PASSWORD } from '../../server/seed';
import { openTestDatabase, TEST_PIN_KEY } from './testDatabase';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Every route the app registered, as registered (schema, config, guards). */
  routes: RouteOptions[];
  /** Signs in and returns the bearer token. */
  login(username: string, password?: string): Promise<string>;
  /** An authenticated request; `role` sets the active role header. */
  call(token: string, options: InjectOptions & { role?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    dataDir: '/nonexistent',
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret'),
    classicTeacher: false,
    classicAdmin: false,
    sessionTtl: 3600,
    sessionIdle: 2 * 3600,
    trustProxy: [],
    pinKey: TEST_PIN_KEY,
    deviceRateLimits: true,
    // FILE_STORE=postgres runs the file tests against the database's store (README).
    fileStore: process.env.FILE_STORE === 'postgres' ? 'postgres' : 'local',
    ...overrides,
  };
}

/**
 * `logger`: the app's log, e.g. to a stream the test reads; off by default. `signInClock`: the
 * sign-in limits' clock, so a test can let time pass without waiting; the database's by default.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  { logger, signInClock }: { logger?: LogOptions; signInClock?: () => Date } = {},
): Promise<TestApp> {
  // In memory the data files already sit in the WASM heap, so shared_buffers holds a second copy of
  // the pages read; PostgreSQL sets up every buffer at start, and its 128MB default made each test
  // file's open two to four times slower than 16MB (measured on the seeded demo: 0.7–1.9 s against
  // 0.4–0.5 s).
  const database = await openTestDatabase({ sharedBuffers: '16MB' });
  // The caches as in production; one app, so no listener for other processes is needed.
  const publish = database.driver === 'postgres' ? publisher(database.db) : undefined;
  const routes: RouteOptions[] = [];
  const app = await buildApp({
    db: database.db,
    config: testConfig(overrides),
    principals: new PrincipalCache(publish),
    lookups: new LookupCache(publish),
    logger: logger ?? false,
    onRoute: (route) => routes.push(route),
    signInClock,
  });
  return {
    app,
    database,
    routes,
    async login(username, password = DEMO_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.body}`);
      return res.json().data.accessToken as string;
    },
    call(token, { role, headers, ...options }) {
      return app.inject({
        ...options,
        headers: { ...headers, 'blade-auth': `bearer ${token}`, ...(role ? { 'x-active-role': role } : {}) },
      });
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

// Two API processes on one PostgreSQL, each caching sessions in memory: a logout through one
// stops the token in the other at once, because revocations travel by LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { PrincipalCache } from '../../server/auth/principalCache';
import { listenForRevocations, publisher } from '../../server/auth/revocations';
import { openDatabase, type Database } from '../../server/db';
import { openTestDatabase } from '../support/testDatabase';
import { testConfig } from '../support/testApp';

describe.skipIf(!process.env.DATABASE_URL)('session revocation across processes (PostgreSQL)', () => {
  let seeded: Database & { url?: string };
  const apps: { app: FastifyInstance; database: Database; close(): Promise<void> }[] = [];

  beforeAll(async () => {
    seeded = await openTestDatabase();
    for (let i = 0; i < 2; i++) {
      // Separate pools and caches, as two server processes would have.
      const database = await openDatabase({ url: seeded.url, poolSize: 2 });
      const principals = new PrincipalCache(publisher(database.db));
      const listener = listenForRevocations(seeded.url!, principals);
      await listener.ready;
      const app = await buildApp({ db: database.db, config: testConfig(), principals });
      apps.push({ app, database, close: async () => { await app.close(); await listener.close(); await database.close(); } });
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await seeded?.close();
  });

  it('a logout on one process is refused on the other right away', async () => {
    const [a, b] = apps;
    const login = await a.app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher', password: 'Demo@2026' } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    // B has the session in its cache now.
    expect((await b.app.inject({ url: '/api/juno/personal/myRoles', headers })).statusCode).toBe(200);
    expect((await b.app.inject({ url: '/api/juno/personal/myRoles', headers })).statusCode).toBe(200);

    expect((await a.app.inject({ method: 'POST', url: '/api/juno/auth/logout', headers })).statusCode).toBe(200);
    // The notification is delivered when the logout commits; allow it a moment to arrive.
    const deadline = Date.now() + 1000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await b.app.inject({ url: '/api/juno/personal/myRoles', headers })).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  });
});

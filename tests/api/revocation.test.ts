// Two API processes on one PostgreSQL, each caching sessions and lookups in memory: a logout
// through one stops the token in the other at once, and an admin's change through one shows in
// the other at once, because invalidations travel by LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { PrincipalCache } from '../../server/auth/principalCache';
import { LookupCache } from '../../server/cache/lookupCache';
import { listenForInvalidations, publisher } from '../../server/cache/invalidations';
import { openDatabase, type Database } from '../../server/db';
import { openTestDatabase } from '../support/testDatabase';
import { testConfig } from '../support/testApp';

describe.skipIf(!process.env.DATABASE_URL)('cache invalidation across processes (PostgreSQL)', () => {
  let seeded: Database & { url?: string };
  const apps: { app: FastifyInstance; database: Database; close(): Promise<void> }[] = [];

  beforeAll(async () => {
    seeded = await openTestDatabase();
    for (let i = 0; i < 2; i++) {
      // Separate pools and caches, as two server processes would have.
      const database = await openDatabase({ url: seeded.url, poolSize: 2 });
      const principals = new PrincipalCache(publisher(database.db));
      const lookups = new LookupCache(publisher(database.db));
      const listener = listenForInvalidations(seeded.url!, [principals, lookups]);
      await listener.ready;
      const app = await buildApp({ db: database.db, config: testConfig(), principals, lookups });
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

  it("an admin's binding through one process shows in the other's cached class list", async () => {
    const [a, b] = apps;
    const signIn = async (app: FastifyInstance, username: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: 'Demo@2026' } });
      return { 'blade-auth': `bearer ${res.json().data.accessToken}` };
    };
    const teacher = await signIn(b.app, 'teacher');
    const admin = await signIn(a.app, 'schooladmin');
    const classes = async () =>
      (await b.app.inject({ url: '/api/vesta/teaching/getTeachClass?leaderType=1', headers: teacher })).json().data.map((c: { className: string }) => c.className);
    // What the seed gives the teacher (数学 in 七(1)/七(2), 物理 in 八(1)/八(2)), read twice: the second from the cache.
    const before = await classes();
    expect(before).toEqual(expect.arrayContaining(['七(1)班', '七(2)班']));
    expect(before).not.toContain('七(3)班');
    expect(await classes()).toEqual(before);

    const info = (await b.app.inject({ url: '/api/juno/personal/info', headers: teacher })).json().data;
    const seventh = (await a.app.inject({ url: '/api/vesta/class/getClassInSchool', headers: admin })).json().data;
    const third = seventh.find((c: { className: string }) => c.className === '七(3)班');
    const bind = await a.app.inject({
      method: 'POST',
      url: '/api/vesta/teaching/bindClassCourse',
      headers: admin,
      payload: { teacherId: info.teacherId, classId: third.id, courseId: info.courses[0].courseId },
    });
    expect(bind.statusCode).toBe(200);
    const deadline = Date.now() + 1000;
    let seen = await classes();
    while (seen.length === before.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await classes();
    }
    expect([...seen].sort()).toEqual([...before, '七(3)班'].sort());
  });
});

// Process entry: open (and migrate, and on first start seed) the database, then serve. With
// WEB_CONCURRENCY=N (PostgreSQL) this process prepares the database, then runs N API processes
// sharing the port (server/cluster.ts) and each of them serves from the code below.
import cluster from 'node:cluster';
import { join } from 'node:path';
import { ConfigError, databasePoolSize, loadConfig, type AppConfig } from './config';
import { openDatabase } from './db';
import { connectionBudgetWarning, type ProcessPool } from './db/connections';
import { demoAccountsPresent, isEmpty } from './seed/presence';
import { httpTransport } from './devices/client';
import { keepDemoFleetAlive, type FleetKeepAlive } from './devices/keepAlive';
import { followUpDemoHeartVoices } from './devices/heartVoices';
import { demoTerminalSecrets, replacePublishedDemoSecrets, writeDemoSecretsFile } from './devices/demoSecrets';
import { DeviceSecretCache } from './modules/devices/secretCache';
import { LiveBus } from './modules/devices/live';
import { fileStoreFor } from './files/stores';
import { buildApp } from './app';
import { ensureAnswerPartitions } from './modules/minerva/answerPartitions';
import { createWorker } from './workers';
import { closePools } from './threads/pool';
import { gradingProcesses } from './threads/processes';
import { PrincipalCache } from './auth/principalCache';
import { LookupCache } from './cache/lookupCache';
import { listenForInvalidations, publisher } from './cache/invalidations';
import { keepStatisticsFresh, type StatisticsKeeper } from './db/statistics';
import { inCluster, superviseApiProcesses } from './cluster';

const startedAt = performance.now();
const config = configOrExit();
const concurrency = config.webConcurrency ?? 1;
if (concurrency > 1 && cluster.isPrimary) {
  // The supervisor: migrate and seed once, then the API processes; it serves nothing itself.
  const database = await openDatabase({ url: config.databaseUrl, poolSize: 2 });
  const seeded = await prepareDatabase(database);
  await database.close();
  superviseApiProcesses(concurrency, { seeded, port: config.port });
} else {
  await serve();
}

/**
 * Seeds the demo on a first start (not in production), refuses a production database holding
 * the demo accounts, and renews published demo terminal secrets; whether it seeded.
 */
async function prepareDatabase(database: Awaited<ReturnType<typeof openDatabase>>): Promise<boolean> {
  // A school's install (NODE_ENV=production) gets no demo data and refuses a database that holds the
  // demo accounts, whose password is published; the first account comes from npm run admin:create.
  // The seed's modules (a term of generated work, the demo scans) load only on the start that seeds:
  // they would stay in this process's memory for nothing.
  const seeded: boolean = !config.production && (await isEmpty(database.db)) && (await (await import('./seed')).seedDemo(database.db, { pinKey: config.pinKey }));
  if (seeded) {
    const { seedDemoResources } = await import('./seed/files');
    await seedDemoResources(database.db, fileStoreFor(config, database.db));
    console.log('已写入演示数据（账号见 README.md）');
  }
  if (config.production) {
    const demo = await demoAccountsPresent(database.db);
    if (demo.length) {
      console.error(`生产模式（NODE_ENV=production）无法启动：数据库中有演示账号（${demo.join('、')}），其密码是公开的。请使用新的数据库，或先删除这些账号。`);
      await database.close();
      process.exit(1);
    }
    if (await isEmpty(database.db)) console.log('生产模式：数据库中还没有账号。请运行 npm run admin:create -- --username <用户名> 创建第一个平台管理员。');
  }
  if (database.driver === 'postgres') {
    const warning = await connectionBudgetWarning(database.db, concurrency, apiPool());
    if (warning) console.warn(warning);
  }
  // Answer records are partitioned by term: the coming terms' partitions exist before their rows do.
  await ensureAnswerPartitions(database.db);
  // Demo terminals of a database seeded before secrets were random still sign with a published key.
  const replaced = await replacePublishedDemoSecrets(database.db);
  if (replaced) console.log(`已为 ${replaced} 台演示终端换用随机密钥`);
  // The demo terminals' random secrets, for `npm run devices` beside this server (owner-only file).
  if (seeded || replaced) writeDemoSecretsFile(config.dataDir, await demoTerminalSecrets(database.db));
  return seeded;
}

/**
 * The PostgreSQL connections of an API process: DATABASE_POOL_SIZE for its requests, and when it
 * grades in process (IN_PROCESS_WORKER, on by default) as many more as a grading worker keeps: one
 * per job it runs at once and two for the leases' heartbeats (server/worker.ts).
 */
function apiPool(): ProcessPool {
  return {
    requests: config.databasePoolSize ?? databasePoolSize(undefined, concurrency),
    grading: process.env.IN_PROCESS_WORKER === '0' ? 0 : gradingProcesses() + 2,
  };
}

async function serve() {
  const pool = apiPool();
  const database = await openDatabase({
    url: config.databaseUrl,
    readUrl: config.databaseReadUrl,
    poolSize: pool.requests + pool.grading,
    dataDir: join(config.dataDir, 'pg'),
    sharedBuffers: process.env.PGLITE_SHARED_BUFFERS,
  });
  // In a cluster the supervisor has prepared the database; the first API process runs the demo's
  // background duties (a flag from the supervisor says whether it seeded on this start).
  const member = inCluster();
  const seeded = member ? member.seeded : await prepareDatabase(database);
  const demoDuties = !member || member.index === 0;
  // Sessions and the shell's lookups are cached in memory; with PostgreSQL other API processes may
  // serve the same users, so invalidations are published and listened for.
  const publish = database.driver === 'postgres' ? publisher(database.db) : undefined;
  const principals = new PrincipalCache(publish);
  const lookups = new LookupCache(publish);
  const deviceSecrets = new DeviceSecretCache(publish);
  const invalidations = publish ? listenForInvalidations(config.databaseUrl!, [principals, lookups, deviceSecrets]) : undefined;
  await invalidations?.ready.catch((error) => console.error('无法监听缓存失效通知，缓存暂停使用', error));
  // The fleet's live events reach a partner's page whichever API process took the beat.
  const liveBus = new LiveBus();
  const unshareLive = publish
    ? await liveBus.share(database.db, config.databaseUrl!).catch((error) => {
        console.error('无法共享设备实时事件，仅本进程的事件会推送', error);
        return undefined;
      })
    : undefined;

  // Grading runs in this process unless IN_PROCESS_WORKER=0 (separate `npm run worker` processes).
  const worker = process.env.IN_PROCESS_WORKER === '0' ? undefined : createWorker(database.db, config);
  const app = await buildApp({
    db: database.db,
    readDb: database.readDb,
    config,
    webRoot: join(import.meta.dirname, '..', 'dist'),
    // One JSON line per request and per error on standard output (server/http/logging.ts).
    logger: { level: process.env.LOG_LEVEL || 'info' },
    principals,
    lookups,
    deviceSecrets,
    liveBus,
    wakeWorkers: () => worker?.notify(),
  });
  worker?.start();

  /** The demo fleet's background beats (devices/keepAlive.ts), once the demo's terminals exist. */
  let fleet: FleetKeepAlive | undefined;

  /** PGlite's planner statistics (db/statistics.ts): PostgreSQL's autovacuum does this itself. */
  let statistics: StatisticsKeeper | undefined;

  let stopping = false;
  const shutdown = async () => {
    // Ctrl-C reaches a cluster's processes twice: from the terminal and from their supervisor.
    if (stopping) return;
    stopping = true;
    await statistics?.stop();
    await fleet?.stop();
    await worker?.stop();
    await app.close();
    await closePools();
    await invalidations?.close();
    await unshareLive?.();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  const host = process.env.HOST ?? '0.0.0.0';
  await app.listen({ port: config.port, host });
  if (database.driver === 'pglite') statistics = keepStatisticsFresh(database.db, (error) => console.error('更新数据库统计信息失败', error));
  console.log(
    `学助已启动${member ? `（服务进程 ${member.index + 1}/${concurrency}）` : ''}：http://localhost:${config.port}  （数据库：${database.driver === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'}，用时 ${Math.round(performance.now() - startedAt)} ms）`,
  );
  // The demo teacher's AI-correction tasks are made through the API once it answers, in the
  // background (DEMO_GRADING=0 leaves them out; the test servers do).
  const self = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${config.port}`;
  if (demoDuties && seeded && process.env.DEMO_GRADING !== '0') {
    import('./seed/grading').then(({ seedDemoGrading }) => seedDemoGrading(self)).then(
      () => console.log(`已提交演示批改任务（用时 ${Math.round(performance.now() - startedAt)} ms），后台批改中`),
      (error) => console.error('演示批改任务未能创建', error),
    );
  }
  // The demo terminals' last 90 days of usage, uploaded by the device simulator through the device
  // API once it answers (DEMO_DEVICES=0 leaves it out), so every partner's boards and device list
  // show believable usage.
  const demoFleet = demoDuties && !config.production && process.env.DEMO_DEVICES !== '0';
  // Then, in the demo, the terminals keep beating in the background so they stay 在线 (started
  // after the simulation, whose scripted beats it must not interleave with).
  const keepFleetAlive = () => {
    fleet = keepDemoFleetAlive(database.db, httpTransport(self), { log: (error) => console.error('演示终端心跳失败', error) });
  };
  if (seeded && demoFleet) {
    demoTerminalSecrets(database.db)
      .then(async (secrets) => (await import('./devices/simulator')).simulate(httpTransport(self), { secrets }))
      .then(async (r) => {
        console.log(`已模拟演示终端 90 天的使用（${r.deployed} 台已部署，${r.jobs} 条打印记录，${r.heartVoiceIds.size} 条学生心声，用时 ${r.ms} ms）`);
        keepFleetAlive();
        await followUpDemoHeartVoices(self, r.heartVoiceIds);
      })
      .catch((error) => console.error('演示终端使用数据未能写入', error));
  } else if (demoFleet) {
    keepFleetAlive();
  }
}

/** The configuration, or the operator's reason in Chinese and exit code 1 (no stack trace). */
function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

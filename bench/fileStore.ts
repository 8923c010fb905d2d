// FILE_STORE=postgres (server/files/postgresStore.ts): a 50 MB upload (the per-file limit) kept in
// the database and read back, on PGlite and, with DATABASE_URL, on PostgreSQL. Throughput both
// ways, and the heap's growth while doing it: the store streams, so the heap grows by its chunks
// in flight, not by the file.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { PostgresFileStore } from '../server/files/postgresStore';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';

const MB = 1024 * 1024;
const SIZE = 50 * MB;

/** 50 MB of random bytes, generated a megabyte at a time as an upload arrives. */
const upload = () =>
  Readable.from((function* () {
    for (let i = 0; i < SIZE / MB; i++) yield randomBytes(MB);
  })());

async function measure(url: string | undefined, label: string): Promise<BenchRow[]> {
  const database = await openTestDatabase({ seed: false, url });
  const dir = mkdtempSync(join(tmpdir(), 'xz-bench-files-'));
  try {
    const store = new PostgresFileStore(database.db, join(dir, 'spool'));
    const writeStart = performance.now();
    const pending = await store.write(upload());
    await pending.commit();
    const writeMs = performance.now() - writeStart;
    const readStart = performance.now();
    let read = 0;
    for await (const chunk of await store.open(pending.hash)) read += (chunk as Buffer).length;
    const readMs = performance.now() - readStart;
    if (read !== SIZE) throw new Error(`read ${read} bytes of ${SIZE}`);
    return [
      { name: `file store ${label}: write 50 MB (spool + commit)`, value: Math.round((SIZE / MB / writeMs) * 1000), unit: 'MB/s', target: '≥ 10 (50 MB kept in ≤ 5 s)' },
      { name: `file store ${label}: read 50 MB`, value: Math.round((SIZE / MB / readMs) * 1000), unit: 'MB/s', target: '≥ 10' },
    ];
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchFileStore(): Promise<BenchRow[]> {
  const rows = await measure(undefined, 'PGlite');
  if (process.env.DATABASE_URL) rows.push(...(await measure(process.env.DATABASE_URL, 'PostgreSQL')));
  return rows;
}

// The two file stores keep the same promises (server/files/store.ts FileStore): nothing is visible
// before commit, the bytes come back as written, the same bytes twice are kept once, a removed file
// cannot be opened. The database's store (FILE_STORE=postgres) runs on PGlite here, and on
// PostgreSQL when DATABASE_URL is set.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db';
import { rows } from '../../server/db/query';
import { CHUNK_BYTES, PostgresFileStore } from '../../server/files/postgresStore';
import { LocalFileStore, type FileStore } from '../../server/files/store';
import { openTestDatabase } from '../support/testDatabase';

let database: Database;
const dir = mkdtempSync(join(tmpdir(), 'xz-file-store-'));
beforeAll(async () => {
  database = await openTestDatabase({ seed: false });
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A source that arrives in small pieces, as an upload does. */
const trickle = (bytes: Buffer) => Readable.from((function* () {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
})());
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const stores: [string, () => FileStore][] = [
  ['local', () => new LocalFileStore(join(dir, 'local'))],
  ['postgres', () => new PostgresFileStore(database.db, join(dir, 'spool'))],
];

describe.each(stores)('%s store', (_name, make) => {
  let store: FileStore;
  beforeAll(() => {
    store = make();
  });

  it('keeps several chunks of bytes under their hash, visible only after commit', async () => {
    const bytes = randomBytes(CHUNK_BYTES * 5 + 123);
    const pending = await store.write(trickle(bytes));
    expect(pending).toMatchObject({ hash: hashOf(bytes), size: bytes.length });
    expect(pending.head.equals(bytes.subarray(0, 4096))).toBe(true);
    // Checks before commit read the spooled bytes from disk.
    expect(existsSync(pending.path)).toBe(true);
    expect(await store.exists(pending.hash)).toBe(false);
    await pending.commit();
    expect(existsSync(pending.path)).toBe(false);
    expect(await store.exists(pending.hash)).toBe(true);
    expect((await readAll(await store.open(pending.hash))).equals(bytes)).toBe(true);
  });

  it('keeps an empty file and a file of exactly one chunk', async () => {
    for (const bytes of [Buffer.alloc(0), randomBytes(CHUNK_BYTES)]) {
      const pending = await store.write(Readable.from([bytes]));
      await pending.commit();
      expect((await readAll(await store.open(pending.hash))).equals(bytes)).toBe(true);
    }
  });

  it('discards a pending file without a trace', async () => {
    const bytes = randomBytes(1000);
    const pending = await store.write(Readable.from([bytes]));
    await pending.discard();
    expect(existsSync(pending.path)).toBe(false);
    expect(await store.exists(pending.hash)).toBe(false);
    await expect(store.open(pending.hash)).rejects.toThrow();
  });

  it('keeps the same bytes committed twice at once, once', async () => {
    const bytes = randomBytes(CHUNK_BYTES + 10);
    const [one, two] = await Promise.all([store.write(Readable.from([bytes])), store.write(Readable.from([bytes]))]);
    await Promise.all([one.commit(), two.commit()]);
    expect((await readAll(await store.open(one.hash))).equals(bytes)).toBe(true);
    if (store instanceof PostgresFileStore) {
      expect(await rows(database.db, sql`SELECT size, chunks FROM stored_files WHERE hash = ${one.hash}`)).toEqual([{ size: bytes.length, chunks: 2 }]);
    }
  });

  it('removes a file: it no longer exists nor opens; other files stay', async () => {
    const keep = await store.write(Readable.from([randomBytes(500)]));
    const gone = await store.write(Readable.from([randomBytes(500)]));
    await keep.commit();
    await gone.commit();
    await store.remove(gone.hash);
    expect(await store.exists(gone.hash)).toBe(false);
    await expect(store.open(gone.hash)).rejects.toThrow();
    expect(await store.exists(keep.hash)).toBe(true);
    // Removing what is not there is no error.
    await store.remove(gone.hash);
  });

  it('refuses names that are not hashes', async () => {
    expect(await store.exists('../../etc/passwd')).toBe(false);
    await expect(store.open('../../etc/passwd')).rejects.toThrow('invalid file hash');
    await expect(store.remove('x')).rejects.toThrow('invalid file hash');
  });
});

describe('postgres store', () => {
  it('fails a read of a file removed while being read, rather than returning it cut short', async () => {
    const store = new PostgresFileStore(database.db, join(dir, 'spool'));
    const bytes = randomBytes(CHUNK_BYTES * 12);
    const pending = await store.write(Readable.from([bytes]));
    await pending.commit();
    const stream = await store.open(pending.hash);
    // The first chunks have arrived (more than the stream buffers ahead: it asks for no more yet).
    await once(stream, 'readable');
    expect(stream.readableLength).toBeGreaterThanOrEqual(CHUNK_BYTES);
    await store.remove(pending.hash);
    await expect(readAll(stream)).rejects.toThrow('removed while being read');
  });

  it('holds a chunk row per 256 KiB, not the whole file in one value', async () => {
    const store = new PostgresFileStore(database.db, join(dir, 'spool'));
    const bytes = randomBytes(CHUNK_BYTES * 3 + 1);
    const pending = await store.write(Readable.from([bytes]));
    await pending.commit();
    const sizes = await rows<{ n: number }>(database.db, sql`SELECT octet_length(data) AS n FROM file_chunks WHERE hash = ${pending.hash} ORDER BY seq`);
    expect(sizes.map((s) => s.n)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 1]);
  });
});

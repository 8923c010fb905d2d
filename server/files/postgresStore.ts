// FILE_STORE=postgres: the content-addressed files in the database (tables stored_files and
// file_chunks), so API processes and grading workers on several machines read the same files
// without a shared disk. Same semantics as LocalFileStore: bytes are spooled to a local temporary
// file first (hashed as they pass; the checks before commit read that file), commit() streams the
// spool into the database in 256 KiB chunks, open() streams them back a few at a time. No file is
// ever held whole in memory.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import { HASH, spool, type FileStore, type PendingFile } from './store';

/** Bytes per chunk row: large enough that a 50 MB upload is 200 rows, small enough to stream. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per query while reading: 2 MiB in flight per open stream. */
const CHUNKS_PER_READ = 8;

/** A file that is not (or no longer) stored; callers answer it with their own Chinese 404. */
export class MissingFileError extends Error {
  readonly code = 'ENOENT';
}

const checked = (hash: string) => {
  // The hash is the only key that reaches the database; anything else is refused, as on disk.
  if (!HASH.test(hash)) throw new Error('invalid file hash');
  return hash;
};

const asBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

export class PostgresFileStore implements FileStore {
  /** `spoolDir`: where uploads wait for commit() or discard(), on this machine's disk. */
  constructor(
    private readonly db: Db,
    private readonly spoolDir: string,
  ) {}

  async write(source: Readable): Promise<PendingFile> {
    const spooled = await spool(source, this.spoolDir);
    return {
      ...spooled,
      commit: async () => {
        try {
          await this.keep(spooled.hash, spooled.size, spooled.path);
        } finally {
          await rm(spooled.path, { force: true });
        }
      },
      discard: () => rm(spooled.path, { force: true }),
    };
  }

  /** The spooled bytes under their hash, in one transaction: all chunks and the name, or nothing. */
  private async keep(hash: string, size: number, path: string): Promise<void> {
    checked(hash);
    await this.db.transaction(async (tx) => {
      // Two processes committing the same bytes at once: the second waits, then finds them stored.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`file:${hash}`}, 0))`);
      const [present] = await rows(tx as unknown as Db, sql`SELECT 1 FROM stored_files WHERE hash = ${hash}`);
      if (present) return;
      const chunks = Math.ceil(size / CHUNK_BYTES);
      await tx.execute(sql`INSERT INTO stored_files (hash, size, chunks) VALUES (${hash}, ${size}, ${chunks})`);
      let seq = 0;
      for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
        await tx.execute(sql`INSERT INTO file_chunks (hash, seq, data) VALUES (${hash}, ${seq++}, ${chunk as Buffer})`);
      }
      // The spool changed under us (it never should): keep nothing rather than a wrong file.
      if (seq !== chunks) throw new Error(`spooled file ${hash} has ${seq} chunks, expected ${chunks}`);
    });
  }

  async open(hash: string): Promise<Readable> {
    const [file] = await rows<{ chunks: number }>(this.db, sql`SELECT chunks FROM stored_files WHERE hash = ${checked(hash)}`);
    if (!file) throw new MissingFileError(`file ${hash} is not stored`);
    const db = this.db;
    let next = 0;
    return new Readable({
      async read() {
        if (next >= file.chunks) {
          this.push(null);
          return;
        }
        try {
          const batch = await rows<{ data: Uint8Array }>(
            db,
            sql`SELECT data FROM file_chunks WHERE hash = ${hash} AND seq >= ${next} AND seq < ${next + CHUNKS_PER_READ} ORDER BY seq`,
          );
          const expected = Math.min(CHUNKS_PER_READ, file.chunks - next);
          // Removed while being read (the last reference deleted): an error, never a truncated file.
          if (batch.length !== expected) throw new MissingFileError(`file ${hash} was removed while being read`);
          next += expected;
          for (const { data } of batch) this.push(asBuffer(data));
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  }

  async exists(hash: string): Promise<boolean> {
    // As on disk: a name that cannot be a hash is simply not stored.
    if (!HASH.test(hash)) return false;
    const [present] = await rows(this.db, sql`SELECT 1 FROM stored_files WHERE hash = ${hash}`);
    return Boolean(present);
  }

  async remove(hash: string): Promise<void> {
    // Its chunks go with it (ON DELETE CASCADE).
    await this.db.execute(sql`DELETE FROM stored_files WHERE hash = ${checked(hash)}`);
  }
}

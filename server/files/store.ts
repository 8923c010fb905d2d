// Content-addressed file storage (DESIGN.md "files"): bytes are kept under their sha256, so the
// same upload twice is stored once. One interface, so another store replaces the local one without
// touching the routes: PostgresFileStore (postgresStore.ts, FILE_STORE=postgres) for API processes
// on several machines; an S3-compatible store would be the next.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface StoredFile {
  hash: string;
  size: number;
  /** The first bytes, for type detection by magic bytes. */
  head: Buffer;
}

/** A file being written: inspect it, then keep it under its hash or throw it away. */
export interface PendingFile extends StoredFile {
  /** Where the bytes wait for commit() or discard(): checks that need more than the head read them there. */
  path: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export interface FileStore {
  /** Streams the bytes in, hashing as they pass; nothing is visible until commit(). */
  write(source: Readable): Promise<PendingFile>;
  open(hash: string): Promise<Readable>;
  exists(hash: string): Promise<boolean>;
  remove(hash: string): Promise<void>;
  /**
   * Where a stored file lies on this machine's disk, when it does: a grading process reads it
   * there instead of the API process reading it into memory and sending it over (after stat, so a
   * missing file fails here as open() would).
   */
  localPath?(hash: string): Promise<string>;
}

const HEAD_BYTES = 4096;
export const HASH = /^[0-9a-f]{64}$/;

/**
 * Writes the bytes to a new file in `tmpDir`, hashing them and keeping their head as they pass;
 * the file is removed if the source fails. Every store spools first: the checks before commit
 * (type, scan quality) read the bytes from disk, and nothing is kept under a hash not yet known.
 */
export async function spool(source: Readable, tmpDir: string): Promise<StoredFile & { path: string }> {
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, randomUUID());
  const digest = createHash('sha256');
  let size = 0;
  const headChunks: Buffer[] = [];
  let headSize = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      digest.update(chunk);
      size += chunk.length;
      if (headSize < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, tap, createWriteStream(tmp));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return { hash: digest.digest('hex'), size, head: Buffer.concat(headChunks), path: tmp };
}

export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private pathOf(hash: string): string {
    // The hash is the only name that reaches the disk; anything else is refused.
    if (!HASH.test(hash)) throw new Error('invalid file hash');
    return join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async write(source: Readable): Promise<PendingFile> {
    const spooled = await spool(source, join(this.root, 'tmp'));
    const target = this.pathOf(spooled.hash);
    return {
      ...spooled,
      commit: async () => {
        await mkdir(join(target, '..'), { recursive: true });
        // Same hash, same bytes: an existing copy is as good as the new one.
        if (await this.exists(spooled.hash)) await rm(spooled.path, { force: true });
        else await rename(spooled.path, target);
      },
      discard: () => rm(spooled.path, { force: true }),
    };
  }

  async localPath(hash: string): Promise<string> {
    const path = this.pathOf(hash);
    await stat(path);
    return path;
  }

  async open(hash: string): Promise<Readable> {
    const path = this.pathOf(hash);
    await stat(path);
    return createReadStream(path);
  }

  async exists(hash: string): Promise<boolean> {
    try {
      await stat(this.pathOf(hash));
      return true;
    } catch {
      return false;
    }
  }

  async remove(hash: string): Promise<void> {
    await rm(this.pathOf(hash), { force: true });
  }
}

// The file store the configuration chooses (FILE_STORE): the local disk under DATA_DIR, or the
// database, which several machines share (README "Running for a district or a region").
import { join } from 'node:path';
import type { AppConfig } from '../config';
import type { Db } from '../db';
import { PostgresFileStore } from './postgresStore';
import { LocalFileStore, type FileStore } from './store';

export function fileStoreFor(config: Pick<AppConfig, 'dataDir' | 'fileStore'>, db: Db): FileStore {
  const root = join(config.dataDir, 'files');
  // Uploads are spooled where the local store keeps its own: on this machine, removed after each request.
  return config.fileStore === 'postgres' ? new PostgresFileStore(db, join(root, 'tmp')) : new LocalFileStore(root);
}

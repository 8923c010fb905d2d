// Process configuration from the environment (README lists every variable).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface AppConfig {
  port: number;
  dataDir: string;
  /** postgres:// URL; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  jwtSecret: Uint8Array;
  classicTeacher: boolean;
  classicAdmin: boolean;
  /** Session lifetime in seconds. */
  sessionTtl: number;
}

const flag = (v: string | undefined) => v === '1' || v === 'true';

/** JWT_SECRET when set, else a secret generated once and kept in DATA_DIR so sessions survive restarts. */
function loadSecret(dataDir: string, fromEnv: string | undefined): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(env.DATA_DIR || './data');
  return {
    port: Number(env.PORT) || 3000,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: loadSecret(dataDir, env.JWT_SECRET),
    classicTeacher: flag(env.TEACHER_CLASSIC_WEB),
    classicAdmin: flag(env.ADMIN_CLASSIC_WEB),
    sessionTtl: 7 * 24 * 3600,
  };
}

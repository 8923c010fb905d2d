// A real PostgreSQL primary with a streaming replica, made for one test on free ports in a
// temporary folder: initdb, then pg_basebackup -R (the replica follows the primary by streaming
// replication, as a district's read replica would). The machine's own cluster is left alone: its
// pg_hba.conf need not allow replication. PostgreSQL refuses to run as root, so as root the
// commands run as the postgres user.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './serverProcess';

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Runs a command-line tool of this PostgreSQL (psql, pg_dump, pg_restore…) as the cluster's owner. */
  tool(name: string, args: string[], input?: Buffer): Buffer;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/<major>/bin), if any. */
export function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const majors = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(base, majors[0], 'bin') : undefined;
}

const asRoot = process.getuid?.() === 0;

export async function startReplicaPair(): Promise<ReplicaPair> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL programs not found under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'xz-replica-'));
  // The postgres user must reach the folder; tmpdir may be private to root.
  chmodSync(dir, 0o777);
  const run = (name: string, args: string[], input?: Buffer): Buffer => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
    const result = spawnSync(cmd, argv, { input, maxBuffer: 1 << 30, cwd: dir });
    if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr?.toString()}`);
    return result.stdout;
  };
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  // A throwaway cluster: no fsync, trust on the loopback (initdb's defaults allow replication there).
  run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const settings = (port: number) => `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\nfull_page_writes = off\nsynchronous_commit = off\nmax_wal_senders = 4\nwal_level = replica\n`;
  appendFileSync(join(primary, 'postgresql.conf'), settings(primaryPort));
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse()) spawnSync(asRoot ? 'runuser' : join(bin, 'pg_ctl'), asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
    started.push(primary);
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica, '-R', '-X', 'stream', '--no-sync']);
    // The copy carries the primary's settings; only its port differs.
    appendFileSync(join(replica, 'postgresql.auto.conf'), `\nport = ${replicaPort}\n`);
    run('pg_ctl', ['-D', replica, '-l', join(dir, 'replica.log'), '-w', 'start']);
    started.push(replica);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/postgres`,
    tool: run,
    stop,
  };
}

/** Whether this machine can make a pair: PostgreSQL's programs, and the postgres user when root. */
export function canStartReplicaPair(): boolean {
  if (!postgresBin()) return false;
  if (!asRoot) return true;
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Where the device simulator gets the demo terminals' secrets. Each terminal's secret is random
// (the seed draws them like a partner's registration does), so the simulator cannot compute them:
// in the server's process and in tests they are read from the database; `npm run devices`, which
// runs beside a server whose embedded database it cannot open, reads the file the server writes
// into DATA_DIR when it seeds the demo (readable by its owner only, like the sign-in secret).
import { createHmac } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rows } from '../db/query';
import { DEMO_DEVICE_COUNT, demoSerial } from '../seed/partners';
import { newDeviceSecret } from '../modules/devices/signature';

/** Serial → secret. */
export type DeviceSecrets = ReadonlyMap<string, string>;

export const DEMO_SECRETS_FILE = 'demo-terminals.json';

const demoSerials = () => Array.from({ length: DEMO_DEVICE_COUNT }, (_, i) => demoSerial(i + 1));

/** The demo terminals' secrets as the database holds them now. */
export async function demoTerminalSecrets(db: Db): Promise<Map<string, string>> {
  const found = await rows<{ serial: string; secret: string }>(
    db,
    sql`SELECT serial, secret FROM devices WHERE serial IN (${sql.join(demoSerials().map((s) => sql`${s}`), sql`, `)})`,
  );
  return new Map(found.map((r) => [r.serial, r.secret]));
}

export function writeDemoSecretsFile(dataDir: string, secrets: DeviceSecrets): void {
  const file = join(dataDir, DEMO_SECRETS_FILE);
  writeFileSync(file, `${JSON.stringify(Object.fromEntries(secrets), null, 2)}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of a file that already exists.
  chmodSync(file, 0o600);
}

/** The secrets the server wrote when it seeded the demo; a Chinese error when there is no such file. */
export function readDemoSecretsFile(dataDir: string): Map<string, string> {
  const file = join(dataDir, DEMO_SECRETS_FILE);
  if (!existsSync(file)) throw new Error(`找不到演示终端的密钥文件 ${file}：请用 --data 指定服务器的 DATA_DIR（服务器首次启动写入演示数据时生成该文件）`);
  return new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>));
}

/**
 * Demo terminals seeded before secrets were random got theirs from a key published in the source
 * (HMAC-SHA256 of the serial with 'xuezhu-demo-terminals'): anyone could sign for them. Those are
 * given random secrets once, at start; returns how many were replaced.
 */
export async function replacePublishedDemoSecrets(db: Db): Promise<number> {
  const published = (serial: string) => createHmac('sha256', 'xuezhu-demo-terminals').update(serial).digest('hex');
  const current = await demoTerminalSecrets(db);
  let replaced = 0;
  for (const [serial, secret] of current) {
    if (secret !== published(serial)) continue;
    await db.execute(sql`UPDATE devices SET secret = ${newDeviceSecret()} WHERE serial = ${serial} AND secret = ${secret}`);
    replaced++;
  }
  return replaced;
}

// `npm run admin:create -- --username <name> [--name 显示名]`: creates a platform admin and prints
// its one-time password, which must be changed at first sign-in. With the embedded database run it
// while the server is stopped (one process opens PGlite's data at a time).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { AccountError, createPlatformAdmin } from '../server/modules/juno/platformAdmin';

const { values } = parseArgs({ options: { username: { type: 'string' }, name: { type: 'string', default: '平台管理员' } } });
if (!values.username) {
  console.error('用法：npm run admin:create -- --username <用户名> [--name <姓名>]');
  process.exit(2);
}
try {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'pg'), poolSize: 1 });
  try {
    const { password } = await createPlatformAdmin(database.db, { username: values.username, name: values.name! });
    console.log(`已创建平台管理员：${values.username}`);
    console.log(`一次性密码：${password}`);
    console.log('首次登录后必须修改此密码；它不会再次显示，请妥善转交。');
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof AccountError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

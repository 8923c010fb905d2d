// `npm run devices -- simulate [--url http://localhost:3000] [--data ./data] [--days 90] [--devices N] [--rate R]`
// drives the demo terminals against a running server through the real device API
// (server/devices/simulator.ts). `npm run devices -- load [--kind heartbeat|heartbeatBatch|printJobs]
// [--seconds 10] [--concurrency 32] [--batch 100]` measures ingestion instead (against a server
// started with DEVICE_RATE_LIMITS=0). The terminals' secrets are read from the file the server
// wrote into its DATA_DIR when it seeded the demo (--data, else DATA_DIR, else ./data).
import { resolve } from 'node:path';
import { httpTransport } from '../server/devices/client';
import { readDemoSecretsFile } from '../server/devices/demoSecrets';
import { loadTest, simulate } from '../server/devices/simulator';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const number = (name: string, fallback?: number) => {
  const value = option(name);
  return value === undefined ? fallback : Number(value);
};

const url = option('url', `http://localhost:${process.env.PORT ?? 3000}`)!.replace(/\/$/, '');
const dataDir = resolve(option('data', process.env.DATA_DIR || './data')!);
const command = args[0];
const secrets = () => {
  try {
    return readDemoSecretsFile(dataDir);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
};
if (command === 'simulate') {
  const result = await simulate(httpTransport(url), { secrets: secrets(), days: number('days'), devices: number('devices'), rate: number('rate'), heartVoices: false });
  console.log(`终端 ${result.terminals} 台（已部署 ${result.deployed}，在线 ${result.online}），打印记录 ${result.jobs} 条，登录 ${result.signIns} 次，用时 ${result.ms} ms`);
} else if (command === 'load') {
  const asked = option('kind', 'heartbeat');
  const kind = asked === 'printJobs' || asked === 'heartbeatBatch' ? asked : 'heartbeat';
  const result = await loadTest(httpTransport(url), { secrets: secrets(), kind, seconds: number('seconds', 10)!, concurrency: number('concurrency', 32)!, batch: number('batch'), devices: number('devices') });
  console.log(`${kind === 'printJobs' ? '打印记录' : kind === 'heartbeatBatch' ? '转发心跳' : '心跳'}：${Math.round(result.perSecond)} 条/秒（请求 ${result.requests} 次，失败 ${result.errors} 次，${result.seconds.toFixed(1)} 秒）`);
} else {
  console.error('用法：npm run devices -- simulate [--url URL] [--data DATA_DIR] [--days 90] [--devices N] [--rate R] | load [--kind heartbeat|heartbeatBatch|printJobs] [--seconds 10] [--concurrency 32]');
  process.exit(2);
}

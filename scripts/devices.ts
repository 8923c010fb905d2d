// `npm run devices -- simulate [--url http://localhost:3000] [--days 90] [--devices N] [--rate R]`
// drives the demo terminals against a running server through the real device API
// (server/devices/simulator.ts). `npm run devices -- load [--kind heartbeat|printJobs]
// [--seconds 10] [--concurrency 32] [--batch 100]` measures ingestion instead.
import { httpTransport } from '../server/devices/client';
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
const command = args[0];
if (command === 'simulate') {
  const result = await simulate(httpTransport(url), { days: number('days'), devices: number('devices'), rate: number('rate'), heartVoices: false });
  console.log(`终端 ${result.terminals} 台（已部署 ${result.deployed}，在线 ${result.online}），打印记录 ${result.jobs} 条，登录 ${result.signIns} 次，用时 ${result.ms} ms`);
} else if (command === 'load') {
  const kind = option('kind', 'heartbeat') === 'printJobs' ? 'printJobs' : 'heartbeat';
  const result = await loadTest(httpTransport(url), { kind, seconds: number('seconds', 10)!, concurrency: number('concurrency', 32)!, batch: number('batch'), devices: number('devices') });
  console.log(`${kind === 'heartbeat' ? '心跳' : '打印记录'}：${Math.round(result.perSecond)} 条/秒（请求 ${result.requests} 次，失败 ${result.errors} 次，${result.seconds.toFixed(1)} 秒）`);
} else {
  console.error('用法：npm run devices -- simulate [--url URL] [--days 90] [--devices N] [--rate R] | load [--kind heartbeat|printJobs] [--seconds 10] [--concurrency 32]');
  process.exit(2);
}

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto.js';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '../../server/grading/cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'grading-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tsx(args: string[]) {
  // The LLM is switched off so the test never depends on the machine's environment.
  const env = { ...process.env, LLM_BASE_URL: '', LLM_API_KEY: '', LLM_MODEL: '' };
  return run(process.execPath, ['--import', 'tsx', cli, ...args], { env, maxBuffer: 8 << 20 });
}

describe('grading command line', () => {
  it('grades a folder of scans against a key and prints per-sheet results and a summary', async () => {
    await tsx(['demo', dir]);
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['key.json', 'S2024M01-打印.pdf', 'S2024M01.layout.json', 'scans']));
    const { stdout } = await tsx([join(dir, 'scans'), '--key', join(dir, 'key.json')]);
    for (const id of ['20240101', '20240102', '20240103', '20240104']) expect(stdout).toContain(`学生 ${id}`);
    expect(stdout).toContain('填空 11(1)：举头望明月');
    expect(stdout).toMatch(/作文 13：\d+ 字/);
    expect(stdout).toContain('答：鸡23只，兔12只');
    expect(stdout).toContain('涂写不清');
    expect(stdout).toMatch(/共 7 页、5 份答题卡：无法识别 0 页/);
    expect(stdout).toMatch(/平均分 [\d.]+/);
  });

  it('reads homework photos against a question list', async () => {
    const photo = join(dir, 'hw.jpg');
    writeFileSync(photo, await homeworkPhoto([
      { text: '1．小明有5个苹果，吃了2个，还剩几个？', hand: false },
      { text: '还剩3个苹果', hand: true },
    ], 3, { rotateDeg: -5, noise: 4 }));
    writeFileSync(join(dir, 'q.json'), JSON.stringify([{ no: 1, text: '小明有5个苹果，吃了2个，还剩几个？' }, { no: 2 }]));
    const { stdout } = await tsx(['homework', photo, '--questions', join(dir, 'q.json')]);
    expect(stdout).toContain('第1题：还剩3个苹果');
    expect(stdout).toContain('未作答：第 2 题');
  });

  it('explains its usage in Chinese', async () => {
    await expect(tsx([])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('用法') });
  });
});

// Grading runs outside the API process: a real server (TEST_HOOKS=1) grades an essay in a child
// process of its own, at a lower OS priority, with the OCR runtime loaded there and never in the
// server; a grading child killed mid-task costs an attempt, not the task; a file whose every
// attempt is killed ends 识别失败 with a Chinese reason instead of hanging.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
let auth: Record<string, string>;
let photo: Buffer;
beforeAll(async () => {
  server = await startServer({ env: { TEST_HOOKS: '1' } });
  const login = await fetch(`${server.url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'teacher', password: 'Demo@2026' }),
  });
  auth = { 'blade-auth': `bearer ${(await login.json()).data.accessToken}` };
  photo = await homeworkPhoto(['秋天来了树叶黄了', '一片片叶子从树上落下来', '我喜欢秋天'].map((text) => ({ text, hand: true })), 3);
});
afterAll(() => server?.stop());

const base = () => `${server.url}/api/wrongbook/v1.0/correct`;
const stat = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), nice: Number(f[16]) };
};
const loaded = (pid: number, library: string) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes(library);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function processes(): Promise<{ serverPid: number; grading: { pid: number; busy: boolean }[] }> {
  return (await (await fetch(`${server.url}/api/test/grading/processes`)).json()).data;
}
const gradingPids = async () => (await processes()).grading.map((c) => c.pid);

/** Creates an essay task with one photo and submits it; returns its id. */
async function submitEssay(title: string): Promise<number> {
  const json = { ...auth, 'content-type': 'application/json' };
  const create = await fetch(`${base()}/task/create`, { method: 'POST', headers: json, body: JSON.stringify({ type: 2, title, essayBrief: { title: '秋天', fullMarks: 50 } }) });
  const task = (await create.json()).data;
  const form = new FormData();
  form.append('taskId', String(task.id));
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), '作文.jpg');
  expect((await fetch(`${base()}/task/upload`, { method: 'POST', headers: auth, body: form })).status).toBe(200);
  expect((await fetch(`${base()}/task/submit`, { method: 'POST', headers: json, body: JSON.stringify({ taskId: task.id }) })).status).toBe(200);
  return task.id;
}

async function settled(taskId: number) {
  for (;;) {
    const detail = (await (await fetch(`${base()}/task/detail?taskId=${taskId}`, { headers: auth })).json()).data;
    if (detail.task.status !== 3) return detail;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The next grading child that is not one of `seen`, once it has a file in hand. */
async function nextBusyChild(seen: Set<number>): Promise<number> {
  for (;;) {
    const fresh = (await processes()).grading.find((c) => c.busy && !seen.has(c.pid) && alive(c.pid));
    if (fresh) return fresh.pid;
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('grades an essay in a child process of the server, at a lower priority, with the OCR runtime loaded only there', async () => {
  const detail = await settled(await submitEssay('作文：秋天'));
  expect(detail.task.status).toBe(4);
  expect(detail.results[0].score).toBeGreaterThan(0);

  const { serverPid, grading } = await processes();
  expect(serverPid).toBe(server.process.pid);
  expect(grading.length).toBeGreaterThan(0);
  for (const { pid } of grading) {
    expect(pid).not.toBe(serverPid);
    expect(stat(pid).ppid).toBe(serverPid);
    expect(stat(pid).nice).toBeGreaterThan(stat(serverPid).nice);
    expect(loaded(pid, 'onnxruntime')).toBe(true);
  }
  expect(loaded(serverPid, 'onnxruntime')).toBe(false);
}, 120_000);

it('a grading child killed while it reads a file is replaced and the file read again', async () => {
  const seen = new Set(await gradingPids());
  const taskId = await submitEssay('作文：秋天（进程被终止）');
  const victim = await nextBusyChild(new Set());
  process.kill(victim, 'SIGKILL');
  // The retry starts another child, which reads the file.
  seen.add(victim);
  const replacement = await nextBusyChild(seen);
  expect(replacement).not.toBe(victim);
  const detail = await settled(taskId);
  expect(detail.task.status).toBe(4);
  expect(detail.files[0].recognitionStatus).toBe(3);
  expect(detail.results[0].score).toBeGreaterThan(0);
}, 120_000);

it('a file whose every attempt loses its grading child fails with a Chinese reason, and the task does not hang', async () => {
  const seen = new Set(await gradingPids());
  const taskId = await submitEssay('作文：秋天（每次都被终止）');
  // The queue tries a file three times.
  for (let attempt = 0; attempt < 3; attempt++) {
    const victim = await nextBusyChild(attempt ? seen : new Set());
    seen.add(victim);
    process.kill(victim, 'SIGKILL');
  }
  const detail = await settled(taskId);
  expect(detail.task.status).toBe(7);
  expect(detail.files[0].recognitionStatus).toBe(4);
  expect(detail.files[0].error).toMatch(/^识别失败：批改进程意外被终止/);
  expect(detail.task.failReason).toMatch(/[\u4e00-\u9fff]/);
}, 120_000);

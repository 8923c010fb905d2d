// The server grades on its own: a teacher submits a task over real HTTP and the worker inside the
// server process picks it up at once, without anyone driving the queue.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { homeworkPhoto } from '../../server/grading/corpus/homeworkPhoto';
import { startServer, type RunningServer } from '../support/serverProcess';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

it('a submitted essay is graded by the in-process worker', async () => {
  const base = `${server.url}/api/wrongbook/v1.0/correct`;
  const login = await fetch(`${server.url}/api/juno/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'teacher', password: 'Demo@2026' }),
  });
  const auth = { 'blade-auth': `bearer ${(await login.json()).data.accessToken}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const create = await fetch(`${base}/task/create`, { method: 'POST', headers: json, body: JSON.stringify({ type: 2, title: '作文：秋天', essayBrief: { title: '秋天', fullMarks: 50 } }) });
  const task = (await create.json()).data;

  const photo = await homeworkPhoto(['秋天来了树叶黄了', '一片片叶子从树上落下来', '我喜欢秋天'].map((text) => ({ text, hand: true })), 3);
  const form = new FormData();
  form.append('taskId', String(task.id));
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), '作文.jpg');
  expect((await fetch(`${base}/task/upload`, { method: 'POST', headers: auth, body: form })).status).toBe(200);
  expect((await fetch(`${base}/task/submit`, { method: 'POST', headers: json, body: JSON.stringify({ taskId: task.id }) })).status).toBe(200);

  let detail;
  const deadline = Date.now() + 60_000;
  do {
    await new Promise((r) => setTimeout(r, 200));
    detail = (await (await fetch(`${base}/task/detail?taskId=${task.id}`, { headers: auth })).json()).data;
  } while (detail.task.status === 3 && Date.now() < deadline);
  expect(detail.task.status).toBe(4);
  expect(detail.files[0].recognitionStatus).toBe(3);
  expect(detail.results[0]).toMatchObject({ maxScore: 50, needsReview: true });
  expect(detail.results[0].score).toBeGreaterThan(0);
});

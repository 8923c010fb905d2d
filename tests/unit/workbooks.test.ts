// The exercise-book calls of the dataProvider reach the minerva routes with the right method and body,
// and a refusal carries the server's Chinese message.
import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../src/dataProvider/http';
import { createWorkbookApi } from '../../src/dataProvider/workbooks';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

function setup(reply: () => Response) {
  const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => reply());
  const notify = vi.fn();
  const http = createHttpClient({
    fetch: fetchMock as unknown as typeof fetch,
    getToken: () => 'tok',
    getActiveRole: () => 'parttime',
    notify,
    onAuthFailure: vi.fn(),
    saveFile: vi.fn(),
    now: () => new Date(2026, 0, 1),
  });
  const calls = () => fetchMock.mock.calls.map(([url, init]) => [init.method, url, init.body ? JSON.parse(String(init.body)) : undefined]);
  return { api: createWorkbookApi(http), calls, notify };
}

const question = { type: 5, stem: '求 $x$', answer: '1', difficulty: 3, points: 5, knowledgePointIds: [4] };

describe('workbook api', () => {
  it('reads a book and the knowledge points, and writes questions where the API documents them', async () => {
    const { api, calls } = setup(() => json({ code: 200, msg: '操作成功', success: true, data: null }));
    await api.workbook(7);
    await api.knowledgePoints(2);
    await api.addBookQuestion(7, 30, question);
    await api.updateBookQuestion(7, 501, question);
    await api.reorderBookPage(7, 30, [502, 501]);
    await api.deleteBookQuestion(7, 501);
    expect(calls()).toEqual([
      ['GET', '/api/minerva/v1.0/exercisebooks/7', undefined],
      ['GET', '/api/minerva/v1.0/knowledge-points?subjectId=2', undefined],
      ['POST', '/api/minerva/v1.0/exercisebooks/7/pages/30/questions', { question }],
      ['PUT', '/api/minerva/v1.0/exercisebooks/7/questions/501', { question }],
      ['PUT', '/api/minerva/v1.0/exercisebooks/7/pages/30/order', { questionIds: [502, 501] }],
      ['DELETE', '/api/minerva/v1.0/exercisebooks/7/questions/501', undefined],
    ]);
  });

  it('fails with the server message when a delete is refused', async () => {
    const msg = '该题已有学生作答记录，不能删除';
    const { api, notify } = setup(() => json({ code: 409, msg, success: false, data: null }, 409));
    await expect(api.deleteBookQuestion(7, 501)).rejects.toThrow(msg);
    expect(notify).toHaveBeenCalledWith(msg, 'error', expect.anything());
  });
});

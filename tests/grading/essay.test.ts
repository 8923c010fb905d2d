import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfigFromEnv, scoreEssay, scoreEssayRubric, type LlmConfig } from '../../server/grading/index.js';

const GOOD = [
  '我的老师姓王，她是一位和蔼可亲的语文老师。',
  '记得有一次，我生病了，没能去上学。放学后，王老师专门来到我家，给我补课。她笑着说：“别着急，慢慢来。”我听了，心里暖暖的。',
  '王老师上课的时候总是全神贯注，她的声音像山间的清泉一样动听。她对我们的作业一丝不苟，每一个错字都会圈出来。',
  '后来，我的成绩越来越好。王老师就像一盏明灯，照亮了我前进的道路。',
  '我爱我的老师，我永远不会忘记她对我的关心。',
].join('\n');

describe('offline essay rubric', () => {
  it('scores four dimensions with Chinese comments and praises idioms and similes', () => {
    const r = scoreEssayRubric(GOOD, { title: '我的老师', minChars: 150, fullMarks: 50 });
    expect(r.dimensions.map((d) => d.name)).toEqual(['内容', '结构', '语言', '字数']);
    expect(r.dimensions.reduce((s, d) => s + d.max, 0)).toBe(50);
    expect(r.score).toBeGreaterThan(30);
    expect(r.score).toBeLessThanOrEqual(50);
    const good = r.notes.filter((n) => n.good).map((n) => n.excerpt);
    expect(good).toEqual(expect.arrayContaining(['和蔼可亲', '全神贯注', '一丝不苟', '像']));
    expect(r.comment).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('finds typos from the confusion set, repeated words and run-on sentences', () => {
    const text =
      '今天我们我们去公园玩，大家兴高彩烈，我迫不急待地跑了进去，看见了很多花，有红的，有黄的，有紫的，还有白的，小鸟在树上唱歌，小朋友在草地上奔跑，爸爸妈妈在旁边聊天，阳光照在身上暖洋洋的，我觉得非常开心非常快乐。';
    const r = scoreEssayRubric(text, { minChars: 400 });
    const typos = r.notes.filter((n) => n.kind === 'typo').map((n) => n.message);
    expect(typos).toEqual(expect.arrayContaining(['"兴高彩烈"应为"兴高采烈"', '"迫不急待"应为"迫不及待"']));
    expect(r.notes.some((n) => n.kind === 'repeat' && n.excerpt === '我们我们')).toBe(true);
    expect(r.notes.some((n) => n.kind === 'runon')).toBe(true);
    expect(r.dimensions.find((d) => d.key === 'length')!.comment).toContain('未达到 400 字');
  });

  it('sees no 「重复」 where one line ends with the word the next line starts with', () => {
    const r = scoreEssayRubric(['我才知道负数就在身边', '身边的电梯里有负一楼', '我们我们都觉得很有意思'].join('\n'), { minChars: 20 });
    const repeats = r.notes.filter((n) => n.kind === 'repeat').map((n) => n.excerpt);
    expect(repeats).not.toContain('身边身边');
    expect(repeats).toContain('我们我们');
  });

  it('gives an off-topic essay a lower content score than an on-topic one', () => {
    const on = scoreEssayRubric(GOOD, { title: '我的老师', minChars: 150 });
    const off = scoreEssayRubric(GOOD.replaceAll('老师', '邻居'), { title: '我的老师', minChars: 150 });
    expect(off.dimensions[0]!.score).toBeLessThan(on.dimensions[0]!.score);
  });
});

describe('LLM essay review against a local OpenAI-compatible server', () => {
  type Handler = (body: Record<string, unknown>, res: ServerResponse) => void;
  let server: Server;
  let handler: Handler;
  const requests: Record<string, unknown>[] = [];
  let cfg: LlmConfig;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        if (req.url !== '/v1/chat/completions' || req.headers.authorization !== 'Bearer test-key') {
          res.writeHead(404).end();
          return;
        }
        const body = JSON.parse(data) as Record<string, unknown>;
        requests.push(body);
        handler(body, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const fromEnv = llmConfigFromEnv({ LLM_BASE_URL: `http://127.0.0.1:${port}/v1/`, LLM_API_KEY: 'test-key', LLM_MODEL: 'essay-model', LLM_MAX_TOKENS: '300' });
    cfg = { ...fromEnv!, timeoutMs: 500, retries: 1 };
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const reply = (res: ServerResponse, content: string) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));

  it('is off unless all three LLM_* variables are set', () => {
    expect(llmConfigFromEnv({ LLM_BASE_URL: 'http://127.0.0.1:1', LLM_MODEL: 'm' })).toBeNull();
  });

  it('adds the model score and comment when the model answers valid JSON, within the token cap', async () => {
    requests.length = 0;
    handler = (_b, res) => reply(res, '```json\n{"score": 44, "comment": "感情真挚，细节生动。", "suggestions": ["结尾可以再点题"]}\n```');
    const r = await scoreEssay(GOOD, { title: '我的老师', minChars: 150, fullMarks: 50 }, cfg);
    expect(r.source).toBe('rubric+llm');
    expect(r.llm).toEqual({ ok: true, review: { score: 44, comment: '感情真挚，细节生动。', suggestions: ['结尾可以再点题'] } });
    expect(r.score).toBe(Math.round(((r.rubric.score + 44) / 2) * 2) / 2);
    expect(requests[0]).toMatchObject({ model: 'essay-model', max_tokens: 300 });
  });

  it('keeps the rubric result when the model output is invalid, after retrying', async () => {
    requests.length = 0;
    handler = (_b, res) => reply(res, '{"score": 88, "comment": "满分不止50"}');
    const r = await scoreEssay(GOOD, { title: '我的老师', minChars: 150, fullMarks: 50 }, cfg);
    expect(r.source).toBe('rubric');
    expect(r.score).toBe(r.rubric.score);
    expect(r.llm).toMatchObject({ ok: false, error: expect.stringContaining('分数无效') });
    expect(requests).toHaveLength(2);
  });

  it('times out a slow model and keeps the rubric result', async () => {
    handler = (_b, res) => setTimeout(() => reply(res, '{"score": 40, "comment": "好"}'), 1500);
    const t = Date.now();
    const r = await scoreEssay(GOOD, { fullMarks: 50 }, cfg);
    expect(r.llm).toMatchObject({ ok: false, error: expect.stringContaining('超时') });
    expect(r.score).toBe(r.rubric.score);
    expect(Date.now() - t).toBeLessThan(2500);
  });

  it('retries a server error and succeeds on the next attempt', async () => {
    let calls = 0;
    handler = (_b, res) => (++calls === 1 ? res.writeHead(503).end() : reply(res, '{"score": 30, "comment": "内容充实。"}'));
    const r = await scoreEssay(GOOD, { fullMarks: 50 }, cfg);
    expect(calls).toBe(2);
    expect(r.llm).toMatchObject({ ok: true });
  });

  it('keeps the rubric result when nothing listens at the configured address', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await scoreEssay(GOOD, { fullMarks: 50 }, { ...cfg, baseUrl: `http://127.0.0.1:${port}/v1`, retries: 0 });
    expect(r.llm).toEqual({ ok: false, error: '无法连接模型服务' });
    expect(r.score).toBe(r.rubric.score);
  });

  it('does not retry a rejected key and says why', async () => {
    requests.length = 0;
    const r = await scoreEssay(GOOD, { fullMarks: 50 }, { ...cfg, apiKey: 'wrong' });
    expect(r.llm).toEqual({ ok: false, error: '模型服务返回 HTTP 404' });
  });
});

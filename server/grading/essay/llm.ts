import type { EssayOptions, RubricResult } from './rubric.js';

// Optional second opinion from an OpenAI-compatible chat endpoint. Every failure (network,
// timeout, HTTP error, malformed or out-of-range output) is reported, never thrown, so the
// offline rubric result always stands on its own.

export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  retries: number;
  /** Cost cap per essay: the most completion tokens we pay for. */
  maxTokens: number;
  /** Essays are cut to this many characters before sending (the other half of the cost cap). */
  maxInputChars: number;
}

export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | null {
  const { LLM_BASE_URL, LLM_API_KEY, LLM_MODEL } = env;
  if (!LLM_BASE_URL || !LLM_API_KEY || !LLM_MODEL) return null;
  return {
    baseUrl: LLM_BASE_URL.replace(/\/+$/, ''),
    apiKey: LLM_API_KEY,
    model: LLM_MODEL,
    timeoutMs: Number(env.LLM_TIMEOUT_MS ?? 30_000),
    retries: Number(env.LLM_RETRIES ?? 2),
    maxTokens: Number(env.LLM_MAX_TOKENS ?? 800),
    maxInputChars: 3000,
  };
}

export interface LlmReview {
  score: number;
  comment: string;
  suggestions: string[];
}

export type LlmOutcome = { ok: true; review: LlmReview; attempts: number } | { ok: false; error: string; attempts: number };

function prompt(text: string, opts: EssayOptions, rubric: RubricResult, cfg: LlmConfig): { role: string; content: string }[] {
  const full = rubric.fullMarks;
  return [
    {
      role: 'system',
      content:
        '你是一位经验丰富的中学语文老师，负责批改学生作文。只输出一个 JSON 对象，不要输出其他内容。' +
        `格式：{"score": 0 到 ${full} 之间的数字, "comment": "总评（中文，100 字以内）", "suggestions": ["修改建议（中文）", ...]}`,
    },
    {
      role: 'user',
      content:
        `题目：${opts.title ?? '（未给出）'}\n` +
        // The whole prompt, so the model too can tell an essay from the prompt copied out.
        (opts.prompt && opts.prompt !== opts.title ? `完整题目和要求：${opts.prompt.slice(0, 500)}\n` : '') +
        `文体：${rubric.genre}\n字数要求：不少于 ${opts.minChars ?? 400} 字\n满分：${full}\n` +
        `参考评分（规则评分）：${rubric.score}\n作文：\n${text.slice(0, cfg.maxInputChars)}`,
    },
  ];
}

/** Accepts the model's JSON (optionally inside a ```json fence) only if every field is valid. */
export function parseReview(content: string, fullMarks: number): LlmReview | string {
  const m = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  let data: unknown;
  try {
    data = JSON.parse((m ? m[1]! : content).trim());
  } catch {
    return '模型输出不是有效的 JSON';
  }
  if (typeof data !== 'object' || data === null) return '模型输出不是 JSON 对象';
  const o = data as Record<string, unknown>;
  if (typeof o.score !== 'number' || !Number.isFinite(o.score) || o.score < 0 || o.score > fullMarks) return `模型给出的分数无效（应在 0 到 ${fullMarks} 之间）`;
  if (typeof o.comment !== 'string' || o.comment.trim() === '') return '模型输出缺少评语';
  const suggestions = Array.isArray(o.suggestions) ? o.suggestions.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
  return { score: Math.round(o.score * 2) / 2, comment: o.comment.trim().slice(0, 500), suggestions: suggestions.slice(0, 10) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function reviewWithLlm(text: string, opts: EssayOptions, rubric: RubricResult, cfg: LlmConfig): Promise<LlmOutcome> {
  let lastError = '';
  for (let attempt = 1; attempt <= cfg.retries + 1; attempt++) {
    if (attempt > 1) await sleep(200 * 2 ** (attempt - 2));
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), cfg.timeoutMs);
    try {
      const res = await fetch(`${cfg.baseUrl}/chat/completions`, {
        method: 'POST',
        signal: ctrl.signal,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.apiKey}` },
        body: JSON.stringify({
          model: cfg.model,
          messages: prompt(text, opts, rubric, cfg),
          max_tokens: cfg.maxTokens,
          temperature: 0.2,
          response_format: { type: 'json_object' },
        }),
      });
      if (!res.ok) {
        lastError = `模型服务返回 HTTP ${res.status}`;
        // Client errors other than rate limiting will not improve on retry.
        if (res.status < 500 && res.status !== 429) return { ok: false, error: lastError, attempts: attempt };
        continue;
      }
      const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') {
        lastError = '模型响应缺少内容';
        continue;
      }
      const review = parseReview(content, rubric.fullMarks);
      if (typeof review === 'string') {
        lastError = review;
        continue;
      }
      return { ok: true, review, attempts: attempt };
    } catch {
      lastError = ctrl.signal.aborted ? `模型服务超时（${cfg.timeoutMs} 毫秒）` : '无法连接模型服务';
    } finally {
      clearTimeout(timer);
    }
  }
  return { ok: false, error: lastError, attempts: cfg.retries + 1 };
}

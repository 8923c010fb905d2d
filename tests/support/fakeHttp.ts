// A fake http client for dataProvider tests: answers by URL and records what was asked.
import { vi } from 'vitest';
import type { Envelope, HttpClient, RequestOptions } from '../../src/dataProvider/http';

export function fakeHttp(answers: Record<string, Envelope>) {
  const calls: { url: string; options: RequestOptions }[] = [];
  const request = vi.fn(async (url: string, options: RequestOptions = {}) => {
    calls.push({ url, options });
    const answer = answers[url];
    if (!answer) throw new Error(`unexpected ${url}`);
    return answer;
  });
  const http = {
    request,
    get: async (url: string, query?: RequestOptions['query']) => (await request(url, { query })).data,
    post: async (url: string, body?: unknown) => (await request(url, { method: 'POST', body })).data,
    download: vi.fn(),
  } as unknown as HttpClient;
  return { http, calls };
}

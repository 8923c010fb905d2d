// A terminal's side of the device API: signs each request (server/modules/devices/signature.ts)
// and sends it through a transport: fetch against a server, or app.inject in tests.
import http from 'node:http';
import https from 'node:https';
import { signedHeaders } from '../modules/devices/signature';

export interface DeviceReply {
  status: number;
  body: { code: number; msg: string; success: boolean; data: unknown };
}

/** Sends one request: method, path (with query), the exact body text ('' for none), headers. */
export type Transport = (method: string, path: string, body: string, headers: Record<string, string>) => Promise<DeviceReply>;

/**
 * Requests over HTTP(S) on kept-alive connections (node:http, lighter per request than fetch, so
 * a load test on the server's own machine measures the server rather than its client).
 */
export function httpTransport(baseUrl: string): Transport {
  const base = new URL(baseUrl);
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const send = secure ? https.request : http.request;
  return (method, path, body, headers) =>
    new Promise((resolve, reject) => {
      const req = send({ hostname: base.hostname, port: base.port, path, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as DeviceReply['body'] });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body || undefined);
    });
}

export class DeviceClient {
  constructor(
    readonly serial: string,
    private readonly secret: string,
    private readonly transport: Transport,
  ) {}

  /** The raw reply, refusals included. */
  send(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<DeviceReply> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const headers = signedHeaders(this.serial, this.secret, method, path, body);
    if (body) headers['content-type'] = 'application/json';
    return this.transport(method, path, body, headers);
  }

  /** The reply's data; a refusal throws with the server's message. */
  async call<T>(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<T> {
    const reply = await this.send(method, path, payload);
    if (!reply.body.success) throw new Error(`${this.serial} ${path}: ${reply.status} ${reply.body.msg}`);
    return reply.body.data as T;
  }
}

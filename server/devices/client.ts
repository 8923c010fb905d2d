// A terminal's side of the device API: signs each request (server/modules/devices/signature.ts)
// and sends it through a transport: fetch against a server, or app.inject in tests.
import { signedHeaders } from '../modules/devices/signature';

export interface DeviceReply {
  status: number;
  body: { code: number; msg: string; success: boolean; data: unknown };
}

/** Sends one request: method, path (with query), the exact body text ('' for none), headers. */
export type Transport = (method: string, path: string, body: string, headers: Record<string, string>) => Promise<DeviceReply>;

export function httpTransport(baseUrl: string): Transport {
  return async (method, path, body, headers) => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body || undefined });
    return { status: res.status, body: (await res.json()) as DeviceReply['body'] };
  };
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

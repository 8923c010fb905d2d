// A terminal's side of the device API: signs each request (server/modules/devices/signature.ts)
// and sends it through a transport: fetch against a server, or app.inject in tests. A terminal
// that is told to slow down (429, per-terminal limits) waits as long as Retry-After says and sends
// again, as a real terminal keeps a message until it can be delivered.
import http from 'node:http';
import https from 'node:https';
import { DEVICE_HEADERS, HEARTBEAT_PATH, heartbeatBody, signedHeaders } from '../modules/devices/signature';

export interface DeviceReply {
  status: number;
  body: { code: number; msg: string; success: boolean; data: unknown };
  /** Seconds, from the Retry-After header of a 429. */
  retryAfter?: number;
}

/** Retry-After as seconds, when it is a number (what the device API sends). */
export function retryAfterSeconds(value: string | string[] | number | undefined): number | undefined {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** How a client waits before sending again; tests replace it. */
export type Sleep = (ms: number) => Promise<void>;
const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as DeviceReply['body'],
              retryAfter: retryAfterSeconds(res.headers['retry-after']),
            });
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

/** What a heartbeat reports. */
export interface BeatState {
  paperLeft: number;
  jammed: boolean;
  firmware: string;
}

/** One beat of a relayed batch: the terminal's state and its own signature of it. */
export interface RelayedBeat extends BeatState {
  serial: string;
  timestamp: number;
  nonce: string;
  signature: string;
}

/** A 429 is waited out this many times at most, each wait at most MAX_WAIT_SECONDS. */
const MAX_RETRIES = 5;
const MAX_WAIT_SECONDS = 15 * 60;

export class DeviceClient {
  constructor(
    readonly serial: string,
    private readonly secret: string,
    private readonly transport: Transport,
    private readonly wait: Sleep = sleep,
  ) {}

  /** The raw reply of one attempt, refusals included (a 429 too). */
  send(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<DeviceReply> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    // Signed anew for each attempt: a nonce is used once.
    const headers = signedHeaders(this.serial, this.secret, method, path, body);
    if (body) headers['content-type'] = 'application/json';
    return this.transport(method, path, body, headers);
  }

  /** Like send, but a 429 is waited out (Retry-After, or a minute) and sent again. */
  async deliver(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<DeviceReply> {
    for (let attempt = 0; ; attempt++) {
      const reply = await this.send(method, path, payload);
      if (reply.status !== 429 || attempt >= MAX_RETRIES) return reply;
      await this.wait(Math.min(reply.retryAfter ?? 60, MAX_WAIT_SECONDS) * 1000);
    }
  }

  /**
   * A heartbeat signed as this terminal would sign its own POST /heartbeat, for another terminal
   * to relay in a batch (POST /heartbeats): the same signature, the same single-use nonce.
   */
  relayedBeat(state: BeatState, now = Date.now()): RelayedBeat {
    const headers = signedHeaders(this.serial, this.secret, 'POST', HEARTBEAT_PATH, heartbeatBody(state), now);
    return {
      serial: this.serial,
      timestamp: Number(headers[DEVICE_HEADERS.timestamp]),
      nonce: headers[DEVICE_HEADERS.nonce],
      signature: headers[DEVICE_HEADERS.signature],
      paperLeft: state.paperLeft,
      jammed: state.jammed,
      firmware: state.firmware,
    };
  }

  /** The reply's data (429s waited out); a refusal throws with the server's message. */
  async call<T>(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<T> {
    const reply = await this.deliver(method, path, payload);
    if (!reply.body.success) throw new Error(`${this.serial} ${path}: ${reply.status} ${reply.body.msg}`);
    return reply.body.data as T;
  }
}

// The one http client of the product (SPEC §7, §8): Blade-Auth and X-Active-Role headers,
// per-request timeout, the {code,msg,success,data} envelope, error toasts, and sign-out on 401/403.
// Independent of React: toasts and sign-out are injected, so tests drive it with a fake fetch.
import { HttpError } from 'ra-core';
import queryString from 'query-string';
import { ERROR_TOAST_MS, REQUEST_TIMEOUT_MS } from '../domain/enums';
import { exportFileName, fileStamp } from '../domain/format';
import { ROLE_REVOKED_HEADER } from '../domain/roles';
import type { Notify } from './notifier';
import type { Envelope } from '../domain/envelope';

export type { Envelope };

export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  /** Milliseconds; defaults to the client's timeout (30000). */
  timeout?: number;
  /** No error toast (SPEC §8: the course query fails silently). 401/403 still sign the user out. */
  silent?: boolean;
  /** Sent without the session (sign-in, public config): a 401 here is a wrong password, not an expired session. */
  anonymous?: boolean;
}

export interface DownloadOptions extends Omit<RequestOptions, 'silent' | 'anonymous'> {
  /** What is exported, as the user calls it: file name and the '导出{name}失败' message. */
  name: string;
  /** File name suffix, e.g. a class name or a date; defaults to the current date and time. */
  suffix?: string;
  ext?: string;
  /** Keep the server's file name (it names the export's scope and term, in China time) when it sends one. */
  serverName?: boolean;
}

export interface HttpClientOptions {
  baseUrl?: string;
  timeout?: number;
  fetch?: typeof fetch;
  getToken: () => string | null;
  getActiveRole: () => string | null | undefined;
  notify: Notify;
  /**
   * Called once per failure with 401 or 403: clears the session and sends the user to sign in; or,
   * when the server says the active role was taken away (`revokedRole`), switches back to another.
   */
  onAuthFailure: (status: 401 | 403, message: string, revokedRole?: string) => void;
  /** Saves a downloaded file; the default clicks a temporary link. */
  saveFile?: (blob: Blob, fileName: string) => void;
  now?: () => Date;
  /** Uploads go through XMLHttpRequest: fetch has no upload progress in browsers yet. */
  createXhr?: () => XMLHttpRequest;
}

export interface UploadOptions {
  query?: Query;
  body: FormData;
  /** Called with the bytes sent so far and the total, as the browser reports them. */
  onProgress?: (loaded: number, total: number) => void;
  /** Milliseconds; uploads default to ten times the request timeout (a 50 MB file on a slow line). */
  timeout?: number;
}

/** A JSON envelope, or a file the server answered with (the annotated workbook of a refused import). */
export type UploadResult<T> =
  | { kind: 'json'; status: number; envelope: Envelope<T>; header: (name: string) => string | null }
  | { kind: 'file'; status: number; blob: Blob; fileName: string; header: (name: string) => string | null };

/** A JSON reply with its status and headers (a list's total travels in Content-Range). */
export interface Exchange<T> {
  status: number;
  headers: Headers;
  envelope: Envelope<T>;
}

export interface HttpClient {
  request<T>(url: string, options?: RequestOptions): Promise<Envelope<T>>;
  /** As `request`, keeping the reply's status and headers. */
  exchange<T>(url: string, options?: RequestOptions): Promise<Exchange<T>>;
  get<T>(url: string, query?: Query, options?: Omit<RequestOptions, 'query' | 'method'>): Promise<T>;
  post<T>(url: string, body?: unknown, options?: Omit<RequestOptions, 'body' | 'method'>): Promise<T>;
  /** SPEC §5 export download; resolves with the saved file name. */
  download(url: string, options: DownloadOptions): Promise<string>;
  /**
   * Multipart upload with progress. A JSON refusal fails like `request` (toast, HttpError); a file
   * answer is returned whatever its status, so the caller can offer it (imports answer 422 with one).
   */
  upload<T>(url: string, options: UploadOptions): Promise<UploadResult<T>>;
  /** Bytes of a protected file (previews need the Blade-Auth header, so an <img src> cannot fetch them). */
  blob(url: string, query?: Query): Promise<Blob>;
  /** Hands a blob to the user as a download. */
  save(blob: Blob, fileName: string): void;
}

const FALLBACK_MESSAGE = '服务异常';

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value;
}

/** Per-field messages of a validation failure, where react-admin forms look for them (error.body.errors). */
function fieldErrors(data: unknown): Record<string, string> | undefined {
  if (typeof data !== 'object' || data === null || !('errors' in data)) return undefined;
  const errors = (data as { errors: unknown }).errors;
  return typeof errors === 'object' && errors !== null ? (errors as Record<string, string>) : undefined;
}

function hasFieldErrors(body: unknown): boolean {
  const errors = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;
  return typeof errors === 'object' && errors !== null && Object.keys(errors).length > 0;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('json');
}

function saveWithLink(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/** The file name of a Content-Disposition header, RFC 5987 `filename*` first (Chinese names). */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      /* fall through to the plain name */
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1];
}


export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = (options.baseUrl ?? '/').replace(/\/$/, '');
  const defaultTimeout = options.timeout ?? REQUEST_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const saveFile = options.saveFile ?? saveWithLink;
  const now = options.now ?? (() => new Date());

  function fail(message: string, status: number, body: unknown, silent: boolean, anonymous = false, revokedRole?: string): never {
    if (!anonymous && (status === 401 || status === 403)) {
      options.notify(message, 'error', ERROR_TOAST_MS);
      options.onAuthFailure(status, message, revokedRole);
    } else if (!silent && !hasFieldErrors(body)) {
      // A refusal that names its fields (学号已存在) is shown by the form on those fields, not in a toast.
      options.notify(message, 'error', ERROR_TOAST_MS);
    }
    throw new HttpError(message, status, body);
  }

  function sessionHeaders(anonymous?: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (!anonymous) {
      const token = options.getToken();
      if (token) headers['Blade-Auth'] = `bearer ${token}`;
      const role = options.getActiveRole();
      if (role) headers['X-Active-Role'] = role;
    }
    return headers;
  }

  function target(url: string, query?: Query): string {
    const search = query ? queryString.stringify(query, { skipNull: true }) : '';
    return `${baseUrl}${url.startsWith('/') ? url : `/${url}`}${search ? `?${search}` : ''}`;
  }

  /** Sends the request and hands the response to `read` before the timeout stops counting. */
  async function send<R>(url: string, opts: RequestOptions, read: (response: Response) => Promise<R>): Promise<R> {
    const headers = sessionHeaders(opts.anonymous);
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
    const timeout = opts.timeout ?? defaultTimeout;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);
    try {
      const response = await fetchImpl(target(url, opts.query), { method: opts.method ?? 'GET', headers, body, signal: controller.signal });
      return await read(response);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (timedOut) fail(`请求超时（${timeout / 1000} 秒），请稍后重试`, 0, null, !!opts.silent);
      fail(`网络异常：${(error as Error)?.message || '无法连接服务器'}`, 0, null, !!opts.silent);
    } finally {
      clearTimeout(timer);
    }
  }

  async function exchange<T>(url: string, opts: RequestOptions = {}): Promise<Exchange<T>> {
    const silent = !!opts.silent;
    const anonymous = !!opts.anonymous;
    return send(url, opts, async (response) => {
      const payload: unknown = isJson(response) ? await response.json().catch(() => undefined) : undefined;
      if (isEnvelope(payload)) {
        if (payload.code !== 200) {
          const revokedRole = response.headers.get(ROLE_REVOKED_HEADER) ?? undefined;
          fail(payload.msg || FALLBACK_MESSAGE, payload.code, { ...payload, errors: fieldErrors(payload.data) }, silent, anonymous, revokedRole);
        }
        return { status: response.status, headers: response.headers, envelope: payload as Envelope<T> };
      }
      // Not our envelope: a proxy or gateway answered. Show what the transport said.
      if (!response.ok) {
        fail(`请求失败（${response.status}）：${response.statusText || FALLBACK_MESSAGE}`, response.status, payload, silent, anonymous);
      }
      return fail(FALLBACK_MESSAGE, response.status, payload, silent, anonymous);
    });
  }

  async function request<T>(url: string, opts: RequestOptions = {}): Promise<Envelope<T>> {
    return (await exchange<T>(url, opts)).envelope;
  }

  async function download(url: string, opts: DownloadOptions): Promise<string> {
    const failure = `导出${opts.name}失败`;
    return send(url, opts, async (response) => {
      if (isJson(response)) {
        // A JSON answer to an export is an error report, whatever its code says.
        const payload: unknown = await response.json().catch(() => undefined);
        const envelope = isEnvelope(payload) ? payload : undefined;
        const status = envelope && envelope.code !== 200 ? envelope.code : response.ok ? 500 : response.status;
        fail(envelope?.msg || failure, status, payload, false);
      }
      if (!response.ok) fail(failure, response.status, null, false);
      const fileName =
        (opts.serverName && dispositionFileName(response.headers.get('content-disposition'))) || exportFileName(opts.name, opts.suffix ?? fileStamp(now()), opts.ext);
      saveFile(await response.blob(), fileName);
      return fileName;
    });
  }

  function upload<T>(url: string, opts: UploadOptions): Promise<UploadResult<T>> {
    const xhr = options.createXhr?.() ?? new XMLHttpRequest();
    const timeout = opts.timeout ?? defaultTimeout * 10;
    return new Promise<UploadResult<T>>((resolve, reject) => {
      const failTo = (message: string, status: number, body: unknown) => {
        try {
          fail(message, status, body, false);
        } catch (error) {
          reject(error);
        }
      };
      xhr.open('POST', target(url, opts.query));
      for (const [name, value] of Object.entries(sessionHeaders())) xhr.setRequestHeader(name, value);
      xhr.responseType = 'blob';
      xhr.timeout = timeout;
      if (opts.onProgress) {
        xhr.upload.onprogress = (event) => opts.onProgress!(event.loaded, event.total);
      }
      xhr.ontimeout = () => failTo(`请求超时（${timeout / 1000} 秒），请稍后重试`, 0, null);
      xhr.onerror = () => failTo('网络异常：无法连接服务器', 0, null);
      xhr.onload = async () => {
        const header = (name: string) => xhr.getResponseHeader(name);
        const blob = xhr.response as Blob;
        if ((header('content-type') ?? '').includes('json')) {
          const payload: unknown = await blob.text().then(JSON.parse).catch(() => undefined);
          if (!isEnvelope(payload)) return failTo(`请求失败（${xhr.status}）：${xhr.statusText || FALLBACK_MESSAGE}`, xhr.status, payload);
          if (payload.code !== 200) return failTo(payload.msg || FALLBACK_MESSAGE, payload.code, { ...payload, errors: fieldErrors(payload.data) });
          return resolve({ kind: 'json', status: xhr.status, envelope: payload as Envelope<T>, header });
        }
        if (xhr.status >= 400 && xhr.status !== 422) return failTo(`请求失败（${xhr.status}）：${xhr.statusText || FALLBACK_MESSAGE}`, xhr.status, null);
        resolve({ kind: 'file', status: xhr.status, blob, fileName: dispositionFileName(header('content-disposition')) ?? 'download', header });
      };
      xhr.send(opts.body);
    });
  }

  async function blob(url: string, query?: Query): Promise<Blob> {
    return send(url, { query }, async (response) => {
      if (isJson(response)) {
        const payload: unknown = await response.json().catch(() => undefined);
        const envelope = isEnvelope(payload) ? payload : undefined;
        fail(envelope?.msg || FALLBACK_MESSAGE, envelope?.code && envelope.code !== 200 ? envelope.code : response.status, payload, false);
      }
      if (!response.ok) fail(`请求失败（${response.status}）：${response.statusText || FALLBACK_MESSAGE}`, response.status, null, false);
      return response.blob();
    });
  }

  return {
    request,
    exchange,
    download,
    upload,
    blob,
    save: (file, fileName) => saveFile(file, fileName),
    async get<T>(url: string, query?: Query, opts?: Omit<RequestOptions, 'query' | 'method'>) {
      return (await request<T>(url, { ...opts, method: 'GET', query })).data;
    },
    async post<T>(url: string, body?: unknown, opts?: Omit<RequestOptions, 'body' | 'method'>) {
      return (await request<T>(url, { ...opts, method: 'POST', body })).data;
    },
  };
}

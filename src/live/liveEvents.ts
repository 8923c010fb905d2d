// The fleet's live events in the browser (docs/api-alarms.md): one stream per page, shared by every
// component that listens (the header's 告警 count, the device list, the data board). Read with
// fetch, which sends the session and role headers as every other call does (EventSource cannot);
// opened when the first listener comes and closed when the last goes; reopened after the server
// ends it (every few minutes) or after a lost connection, waiting longer after each failure.
import { useEffect, useRef } from 'react';
import { getToken, pageActiveRole } from '../authProvider/session';
import { LIVE_STREAM_PATH, type LiveEvent } from '../domain/alarms';

type Listener = (event: LiveEvent) => void;

const listeners = new Set<Listener>();
let controller: AbortController | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

function parse(block: string): LiveEvent | undefined {
  const data = block
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trimStart())
    .join('\n');
  if (!data) return undefined;
  try {
    return JSON.parse(data) as LiveEvent;
  } catch {
    return undefined;
  }
}

async function connect() {
  const token = getToken();
  if (!token || !listeners.size) return;
  const current = new AbortController();
  controller = current;
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Blade-Auth': `bearer ${token}` };
  const role = pageActiveRole();
  if (role) headers['X-Active-Role'] = role;
  let stop = false;
  try {
    const res = await fetch(LIVE_STREAM_PATH, { headers, signal: current.signal, cache: 'no-store' });
    // Signed out, another role, too many tabs: no live updates on this page; nothing to retry soon.
    if (res.status === 401 || res.status === 403) stop = true;
    if (!res.ok || !res.body) throw new Error(String(res.status));
    failures = 0;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const event = parse(text.slice(0, end));
        text = text.slice(end + 2);
        if (event) for (const listener of [...listeners]) listener(event);
      }
    }
  } catch {
    failures++;
  }
  if (controller !== current || current.signal.aborted || stop) return;
  controller = undefined;
  // The server's normal end: at once; a failure: 3 s, 6 s, … up to a minute.
  retryTimer = setTimeout(() => void connect(), failures ? Math.min(60_000, 3000 * failures) : 0);
}

export function subscribeLive(listener: Listener): () => void {
  listeners.add(listener);
  if (!controller && !retryTimer) void connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    controller?.abort();
    controller = undefined;
  };
}

/** Calls `onEvent` for every live event while the component is shown (when `enabled`). */
export function useLiveEvents(onEvent: Listener, enabled = true) {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    if (!enabled) return;
    return subscribeLive((event) => latest.current(event));
  }, [enabled]);
}

/**
 * Calls `refresh` after live events that `matters` selects, at most once per `ms`: a burst of
 * beats from a school's terminals reloads the list once, not thirty times.
 */
export function useLiveRefresh(refresh: () => void, matters: (event: LiveEvent) => boolean, ms = 1000, enabled = true) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents((event) => {
    if (!matters(event) || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  }, enabled);
}

// Console errors a refused request leaves by design, for tests that check a page logged nothing
// else: the browser's own "Failed to load resource: the server responded with a status of 400 …"
// for the request's URL, and react-admin's log of the error its data provider passes on, which
// begins with the server's message. They reach the test when the browser sends them — before or
// after the page shows the message — so a test does not wait for them: it names the refusal
// before making the request, and each line is excused once, whenever it arrives.
import type { ConsoleMessage } from 'playwright-core';

export interface Refusal {
  /** The request's full URL. */
  url: string;
  status: number;
  /** The server's message. */
  msg: string;
}

/** Returns whether a console message is one the named refusals leave (and takes it off the list). */
export function refusalLines(refusals: Refusal[]): (message: ConsoleMessage) => boolean {
  const pending = refusals.flatMap((r): ((m: ConsoleMessage) => boolean)[] => [
    (m) => m.location().url === r.url && new RegExp(`^Failed to load resource: the server responded with a status of ${r.status} \\(`).test(m.text()),
    (m) => m.text().split('\n')[0].replace(/^[\w$]+: /, '') === r.msg,
  ]);
  return (message) => {
    if (message.type() !== 'error') return false;
    const i = pending.findIndex((matches) => matches(message));
    if (i < 0) return false;
    pending.splice(i, 1);
    return true;
  };
}

// What a process and its threads and children use, from Linux's /proc: CPU seconds (user +
// system) and resident memory. The benchmarks use it to tell where the time of a request under
// load goes: the API's own event loop (its main thread), its worker threads, or child processes.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS = 100; // USER_HZ, 100 on every Linux the product runs on

/** The fields of /proc/…/stat after the command name (which may hold spaces). */
function statFields(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds of a whole process (all its threads), or of one thread when `tid` is given. */
export function cpuSeconds(pid: number, tid?: number): number {
  const f = statFields(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`);
  return (Number(f[11]) + Number(f[12])) / TICKS;
}

/** The pids of a process's children (any command). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(`/proc/${entry}/stat`)[1]) === pid) out.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** The nice value of a process (0 normal … 19 nicest). */
export const niceOf = (pid: number) => Number(statFields(`/proc/${pid}/stat`)[16]);

/** Resident set size in bytes. */
export const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;

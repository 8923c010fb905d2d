// The device simulator: drives the real device API as the demo terminals would. Each terminal asks
// for its school's roster, uploads the sign-ins and print jobs it "buffered" over the last days
// (school days busier than weekends, exam weeks busier, the National Day holiday quiet; 错题本 the
// main app; subjects from the school's courses; mostly students, a few pages a job), signs a few
// students in live, and beats once now: most terminals online, a few silent (offline), one low on
// paper, one jammed. Deterministic per serial, and idempotent: a second run adds nothing — the
// same job ids and sign-in instants come back as duplicates, and a terminal whose uploads were
// known already (it was simulated before) does not replay its scripted beats (which would record
// its refill, jam and firmware events again) nor its live sign-in; only days since the last run
// are new. Except 学生心声, the demo school's messages of the last weeks (heartVoices.ts), which a
// second run posts again (`heartVoices: false` leaves them out; the npm run devices script does).
// Also a load mode for the bench: many concurrent heartbeats or print-job uploads.
// Terminals sign with their own random secrets: the caller passes them (./demoSecrets.ts).
import { random } from '../seed/draft';
import { DEMO_DEVICE_COUNT, demoSerial } from '../seed/partners';
import { PRINT_APPS, UserKind } from '../../src/domain/partner';
import { MAX_UPLOAD_RECORDS } from '../../src/domain/devices';
import { DeviceClient, type Transport } from './client';
import type { DeviceSecrets } from './demoSecrets';
import { postDemoHeartVoices } from './heartVoices';

const API = '/api/device/v1';
const DAY_MS = 24 * 3600 * 1000;
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

interface Roster {
  schoolName: string;
  students: { userId: number; studentNo: string; name: string; className: string | null }[];
  teachers: { userId: number; name: string }[];
  subjects: { subjectId: number; name: string }[];
}

interface Job {
  clientJobId: string;
  userKind: number;
  userId: number;
  app: number;
  subjectId: number | null;
  pages: number;
  printedAt: string;
}

interface SignIn {
  userKind: number;
  userId: number;
  signedInAt: string;
}

export interface SimulateOptions {
  /** The demo terminals' secrets by serial (demoTerminalSecrets or readDemoSecretsFile). */
  secrets: DeviceSecrets;
  /** Days of usage back from today (China days), today included. */
  days?: number;
  /** The first N demo terminals (all by default). */
  devices?: number;
  /** Average print jobs per terminal on a school day. */
  rate?: number;
  /** Terminals simulated at once. */
  concurrency?: number;
  now?: Date;
  /** Posts the demo school's 学生心声 (default true). */
  heartVoices?: boolean;
}

export interface SimulateResult {
  terminals: number;
  deployed: number;
  online: number;
  jobs: number;
  signIns: number;
  /** The posted demo 学生心声: id by position in DEMO_VOICES. */
  heartVoiceIds: Map<number, number>;
  ms: number;
}

/** The demo terminals (the first `count`) as clients of a transport, each with its secret. */
export function demoClients(transport: Transport, secrets: DeviceSecrets, count = DEMO_DEVICE_COUNT): DeviceClient[] {
  return Array.from({ length: Math.min(count, DEMO_DEVICE_COUNT) }, (_, i) => {
    const serial = demoSerial(i + 1);
    const secret = secrets.get(serial);
    if (!secret) throw new Error(`缺少演示终端${serial}的密钥`);
    return new DeviceClient(serial, secret, transport);
  });
}

const APP = Object.fromEntries(PRINT_APPS.map((a) => [a.label, a.value])) as Record<string, number>;
const SUBJECT_WEIGHT: Record<string, number> = { 数学: 3, 英语: 2, 语文: 2, 物理: 1.5, 化学: 1.2 };

function weighted<T>(next: () => number, items: readonly T[], weight: (t: T) => number): T {
  const total = items.reduce((s, t) => s + weight(t), 0);
  let r = next() * total;
  for (const t of items) {
    r -= weight(t);
    if (r <= 0) return t;
  }
  return items[items.length - 1];
}

/** Poisson-like count around `mean` (normal approximation, never negative). */
function count(next: () => number, mean: number): number {
  const gauss = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Math.max(0, Math.round(mean + Math.sqrt(mean) * gauss));
}

/** Minutes after China midnight when terminals are used: before class, breaks, noon, after school. */
const SLOTS = [
  { from: 7 * 60 + 20, to: 8 * 60, w: 0.12 },
  { from: 9 * 60 + 40, to: 10 * 60 + 10, w: 0.14 },
  { from: 11 * 60 + 50, to: 13 * 60 + 20, w: 0.3 },
  { from: 15 * 60 + 20, to: 17 * 60 + 40, w: 0.34 },
  { from: 8 * 60, to: 17 * 60, w: 0.1 },
];

/** How busy a China day is: weekdays, weekends, the National Day holiday, exam weeks. */
function dayFactor(dayStart: Date, daysAgo: number): number {
  const china = new Date(dayStart.getTime() + CHINA_OFFSET_MS);
  const weekday = china.getUTCDay();
  if (china.getUTCMonth() === 9 && china.getUTCDate() <= 7) return 0.05;
  const weekend = weekday === 0 ? 0.12 : weekday === 6 ? 0.25 : 1;
  // A monthly test and the mid-term: the weeks around 12 and 54 days ago.
  const exam = Math.abs(daysAgo - 12) <= 3 || Math.abs(daysAgo - 54) <= 3 ? 1.8 : 1;
  return weekend * exam;
}

/** The terminal's buffered usage of the last `days` China days, up to `until`. */
export function usageOf(serial: string, roster: Roster, options: { days: number; rate: number; now: Date; until: Date }): { jobs: Job[]; signIns: SignIn[] } {
  const seed = [...serial].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);
  const next = random(seed);
  const busy = 0.6 + next() * 0.8;
  const jobs: Job[] = [];
  const signIns: SignIn[] = [];
  if (!roster.students.length && !roster.teachers.length) return { jobs, signIns };
  const todayStart = Math.floor((options.now.getTime() + CHINA_OFFSET_MS) / DAY_MS) * DAY_MS - CHINA_OFFSET_MS;
  const subjects = roster.subjects.length ? roster.subjects : [{ subjectId: 0, name: '' }];
  for (let daysAgo = options.days - 1; daysAgo >= 0; daysAgo--) {
    const dayStart = new Date(todayStart - daysAgo * DAY_MS);
    const sessions = count(next, (options.rate / 1.4) * busy * dayFactor(dayStart, daysAgo));
    const dayKey = new Date(dayStart.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '');
    for (let s = 0; s < sessions; s++) {
      const slot = weighted(next, SLOTS, (x) => x.w);
      let at = dayStart.getTime() + (slot.from + next() * (slot.to - slot.from)) * 60_000;
      const teacher = roster.teachers.length > 0 && (next() < 0.14 || !roster.students.length);
      const user = teacher
        ? { userKind: UserKind.teacher, userId: roster.teachers[Math.floor(next() * roster.teachers.length)].userId }
        : { userKind: UserKind.student, userId: roster.students[Math.floor(next() * roster.students.length)].userId };
      const printed = teacher ? 1 + Math.floor(next() * 2) : next() < 0.7 ? 1 : 2;
      if (at + printed * 90_000 > options.until.getTime()) continue;
      signIns.push({ ...user, signedInAt: new Date(at).toISOString() });
      for (let k = 0; k < printed; k++) {
        at += 30_000 + Math.floor(next() * 60_000);
        const app = teacher
          ? weighted(next, ['试卷', '作业', '学情报告', '错题本'], (a) => ({ 试卷: 45, 作业: 25, 学情报告: 20, 错题本: 10 })[a]!)
          : weighted(next, ['错题本', '作业', '试卷'], (a) => ({ 错题本: 65, 作业: 25, 试卷: 10 })[a]!);
        const subject = weighted(next, subjects, (x) => SUBJECT_WEIGHT[x.name] ?? 0.7);
        const pages =
          app === '试卷' ? 2 + Math.floor(next() * 5) : app === '错题本' ? 1 + Math.floor(next() * 4) : 1 + Math.floor(next() * 3);
        jobs.push({
          clientJobId: `${dayKey}-${s}-${k}`,
          ...user,
          app: APP[app],
          subjectId: app === '学情报告' && next() < 0.5 ? null : subject.subjectId || null,
          pages,
          printedAt: new Date(at).toISOString(),
        });
      }
    }
  }
  return { jobs, signIns };
}

async function inBatches<T>(items: T[], size: number, send: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await send(items.slice(i, i + size));
}

async function pool<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

/**
 * The state each deployed terminal reports now, by its position among the deployed ones: a few
 * are silent (offline since some days), one is jammed, one low on paper; some show a history of
 * a refill, a cleared jam or a firmware upgrade.
 */
function scriptOf(position: number): { offlineDays?: number; beats: { paperLeft: number; jammed: boolean; firmware: string }[] } {
  const ok = (paperLeft: number, firmware = '2.4.0') => ({ paperLeft, jammed: false, firmware });
  switch (position) {
    case 3:
      return { offlineDays: 3, beats: [] };
    case 14:
      return { offlineDays: 9, beats: [] };
    case 1:
      return { beats: [ok(260), { paperLeft: 255, jammed: true, firmware: '2.4.0' }] };
    case 6:
      return { beats: [ok(140), ok(32)] };
    case 9:
      return { beats: [ok(18), ok(480)] };
    case 11:
      return { beats: [ok(300, '2.3.1'), ok(300)] };
    case 16:
      return { beats: [{ paperLeft: 210, jammed: true, firmware: '2.4.0' }, ok(205)] };
    default:
      return { beats: [ok(120 + ((position * 97) % 360))] };
  }
}

/** Runs the demo terminals against the API behind `transport`. */
export async function simulate(transport: Transport, options: SimulateOptions): Promise<SimulateResult> {
  const began = performance.now();
  const now = options.now ?? new Date();
  const days = options.days ?? 90;
  const rate = options.rate ?? 10;
  const clients = demoClients(transport, options.secrets, options.devices);
  // Which terminals stand in a school: the roster answers for those only.
  const rosters = new Map<DeviceClient, Roster>();
  for (const client of clients) {
    const reply = await client.deliver('GET', `${API}/roster`);
    if (reply.body.success) rosters.set(client, reply.body.data as Roster);
    else if (reply.status !== 403) throw new Error(`${client.serial} roster: ${reply.status} ${reply.body.msg}`);
  }
  const deployed = clients.filter((c) => rosters.has(c));
  const heartVoiceIds = options.heartVoices === false ? new Map<number, number>() : await postDemoHeartVoices(deployed, rosters, now);
  const result: SimulateResult = { terminals: clients.length, deployed: deployed.length, online: 0, jobs: 0, signIns: 0, heartVoiceIds, ms: 0 };
  await pool(deployed, options.concurrency ?? 4, async (client, position) => {
    const roster = rosters.get(client)!;
    const script = scriptOf(position);
    const until = new Date(now.getTime() - (script.offlineDays ?? 0) * DAY_MS - 60_000);
    const usage = usageOf(client.serial, roster, { days, rate, now, until });
    // Records the server already had: this terminal was simulated before.
    let known = 0;
    const upload = async (path: string, body: object) => {
      const reply = await client.call<{ received: number; recorded: number }>('POST', path, body);
      known += reply.received - reply.recorded;
    };
    await inBatches(usage.signIns, MAX_UPLOAD_RECORDS, (signIns) => upload(`${API}/signIns`, { signIns }));
    await inBatches(usage.jobs, MAX_UPLOAD_RECORDS, (jobs) => upload(`${API}/printJobs`, { jobs }));
    result.jobs += usage.jobs.length;
    result.signIns += usage.signIns.length;
    if (script.beats.length) result.online++;
    if (known > 0) return;
    for (const beat of script.beats) await client.call('POST', `${API}/heartbeat`, beat);
    if (script.beats.length) {
      // A student signs in live, as at the terminal's screen.
      const student = roster.students[position % Math.max(1, roster.students.length)];
      if (student) {
        await client.call('POST', `${API}/signIn`, { userKind: UserKind.student, studentNo: student.studentNo });
        result.signIns++;
      }
    }
  });
  result.ms = Math.round(performance.now() - began);
  return result;
}

export interface LoadOptions {
  secrets: DeviceSecrets;
  /** heartbeatBatch: beats relayed `batch` at a time, each terminal's own signed beat (POST /heartbeats). */
  kind: 'heartbeat' | 'heartbeatBatch' | 'printJobs';
  seconds: number;
  concurrency: number;
  /** Print jobs per upload (printJobs), beats per relayed batch (heartbeatBatch). */
  batch?: number;
  devices?: number;
}

export interface LoadResult {
  requests: number;
  records: number;
  errors: number;
  seconds: number;
  perSecond: number;
}

/**
 * Load: `concurrency` terminals' worth of requests in flight for `seconds`, spread over the
 * deployed demo terminals. Heartbeats report an unchanged state (no events); uploads carry new
 * jobs of the school's students printed just now. perSecond counts heartbeats or print jobs.
 * Far beyond what the per-terminal limits allow: measure a server started with DEVICE_RATE_LIMITS=0.
 */
/** The terminals grouped by owner: each relays a beat of every one, and keeps those it may carry. */
async function partnerFleets(clients: DeviceClient[]): Promise<DeviceClient[][]> {
  const fleets: DeviceClient[][] = [];
  let left = clients;
  while (left.length) {
    const relay = left[0];
    const reply = await relay.send('POST', `${API}/heartbeats`, { beats: left.map((c) => c.relayedBeat({ paperLeft: 400, jammed: false, firmware: '2.4.0' })) });
    if (!reply.body.success) throw new Error(`${relay.serial} /heartbeats: ${reply.status} ${reply.body.msg}`);
    const results = (reply.body.data as { results: { code: number }[] }).results;
    fleets.push(left.filter((_, i) => results[i].code === 200));
    left = left.filter((c, i) => c !== relay && results[i].code !== 200);
  }
  return fleets;
}

export async function loadTest(transport: Transport, options: LoadOptions): Promise<LoadResult> {
  const clients = demoClients(transport, options.secrets, options.devices);
  const targets: { client: DeviceClient; roster: Roster }[] = [];
  for (const client of clients) {
    const reply = await client.send('GET', `${API}/roster`);
    if (reply.body.success) targets.push({ client, roster: reply.body.data as Roster });
  }
  if (!targets.length) throw new Error('没有已部署的演示终端');
  for (const t of targets) await t.client.call('POST', `${API}/heartbeat`, { paperLeft: 400, jammed: false, firmware: '2.4.0' });
  const batch = options.batch ?? 100;
  // A relay may carry only its own partner's terminals: the partners' fleets, found by asking.
  const fleets = options.kind === 'heartbeatBatch' ? await partnerFleets(targets.map((t) => t.client)) : [];
  const run = `${Date.now().toString(36)}`;
  let requests = 0;
  let records = 0;
  let errors = 0;
  const began = performance.now();
  const deadline = began + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async (_, worker) => {
      const { client, roster } = targets[worker % targets.length];
      let n = 0;
      while (performance.now() < deadline) {
        let reply;
        if (options.kind === 'heartbeat') {
          reply = await client.send('POST', `${API}/heartbeat`, { paperLeft: 400, jammed: false, firmware: '2.4.0' });
        } else if (options.kind === 'heartbeatBatch') {
          const fleet = fleets[worker % fleets.length];
          const beats = Array.from({ length: batch }, (_, i) => fleet[(n * batch + i) % fleet.length].relayedBeat({ paperLeft: 400, jammed: false, firmware: '2.4.0' }));
          reply = await fleet[0].send('POST', `${API}/heartbeats`, { beats });
          n++;
          requests++;
          const data = reply.body.data as { recorded: number; received: number } | null;
          records += data?.recorded ?? 0;
          errors += data ? data.received - data.recorded : 1;
          continue;
        } else {
          const printedAt = new Date().toISOString();
          const jobs = Array.from({ length: batch }, (_, i) => {
            const student = roster.students[(n * batch + i) % roster.students.length];
            return { clientJobId: `load-${run}-${worker}-${n}-${i}`, userKind: UserKind.student, userId: student.userId, app: 1, subjectId: roster.subjects[i % roster.subjects.length]?.subjectId ?? null, pages: 2, printedAt };
          });
          reply = await client.send('POST', `${API}/printJobs`, { jobs });
        }
        n++;
        requests++;
        if (reply.body.success) records += options.kind === 'heartbeat' ? 1 : batch;
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  return { requests, records, errors, seconds, perSecond: records / seconds };
}

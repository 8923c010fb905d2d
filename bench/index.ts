// `npm run bench`: every speed and memory figure the issues ask for, as a table.
// `npm run bench -- foundation` runs one group.
import { benchFoundation } from './foundation';
import { benchSchool } from './school';
import { benchHardening } from './hardening';
import { benchExams } from './exams';
import { benchLeaderExams } from './leaderExams';
import { benchAiCorrect } from './aiCorrect';
import { benchMarking } from './marking';
import { benchWrongbook } from './wrongbook';
import { benchStudentWrongbook } from './studentWrongbook';
import { benchVolumePaper } from './volumePaper';
import { benchAnalysis } from './analysis';
import { benchDevices } from './devices';
import { benchLiveEvents } from './liveEvents';
import { benchThroughput } from './throughput';
import { benchPartnerOrders } from './partnerOrders';
import { benchPartnerBoards } from './partnerBoards';
import { benchHeartVoices } from './heartVoices';
import { benchFamily } from './family';
import { gradingFigures } from '../server/grading/bench/index';
import { benchEssays } from './essays';
import { benchOmrHeldOut } from './readings/omr';
import { benchFillins } from './readings/fillins';
import { benchFileStore } from './fileStore';
import { printRows, type BenchRow } from './table';

const groups: Record<string, () => Promise<BenchRow[]>> = {
  foundation: benchFoundation,
  school: benchSchool,
  hardening: benchHardening,
  exams: benchExams,
  // The leaders' exam report of a grade (考试分析).
  leaderexams: benchLeaderExams,
  aicorrect: benchAiCorrect,
  marking: benchMarking,
  // The class wrong-answer book, then the student wrong-answer book.
  wrongbook: async () => [...(await benchWrongbook()), ...(await benchStudentWrongbook())],
  volumepaper: benchVolumePaper,
  analysis: benchAnalysis,
  devices: benchDevices,
  // 1,000 terminals beating, 50 data-board event streams: beat → event latency.
  live: benchLiveEvents,
  // student/page at 50 connections (wrk) and heartbeats, one by one and relayed in batches, on a
  // server process; PostgreSQL too with DATABASE_URL or --pg.
  throughput: benchThroughput,
  orders: benchPartnerOrders,
  boards: benchPartnerBoards,
  heartvoices: benchHeartVoices,
  // The family page (家长查看) a link opens.
  family: benchFamily,
  // FILE_STORE=postgres: a 50 MB upload into the database and back.
  files: benchFileStore,
  essays: benchEssays,
  // Held-out answer sheets written for the bench (bench/readings), apart from the engine's corpus.
  omr: benchOmrHeldOut,
  fillins: benchFillins,
  grading: async () =>
    (await gradingFigures(process.argv.includes('--quick'))).figures.map((f) => ({ name: f.name, value: f.value, unit: '', target: f.target })),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const rows: BenchRow[] = [];
for (const [name, run] of Object.entries(groups)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.error(`… ${name}`);
  rows.push(...(await run()));
}
printRows(rows);

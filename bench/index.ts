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
import { benchPartnerOrders } from './partnerOrders';
import { benchPartnerBoards } from './partnerBoards';
import { benchHeartVoices } from './heartVoices';
import { benchFamily } from './family';
import { gradingFigures } from '../server/grading/bench/index';
import { benchEssays } from './essays';
import { benchOmrHeldOut } from './readings/omr';
import { benchFillins } from './readings/fillins';
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
  orders: benchPartnerOrders,
  boards: benchPartnerBoards,
  heartvoices: benchHeartVoices,
  // The family page (家长查看) a link opens.
  family: benchFamily,
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

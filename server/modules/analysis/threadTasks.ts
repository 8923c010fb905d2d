// What 学情 runs in the heavy-work threads: rendering a student's one-page diagnostic (diagnosticPdf.ts).
import { heavyTasks } from '../../threads/pool';
import type * as diagnosticPdf from './diagnosticPdf';

export const runHistoryHeavy = heavyTasks<Pick<typeof diagnosticPdf, 'renderDiagnostic'>>(new URL('./diagnosticPdf.ts', import.meta.url));

// What exams run in the heavy-work threads: rendering a printable paper (paperPdf.ts).
import { heavyTasks } from '../../threads/pool';
import type * as paperPdf from './paperPdf';

export const runHeavy = heavyTasks<Pick<typeof paperPdf, 'renderPaper'>>(new URL('./paperPdf.ts', import.meta.url));

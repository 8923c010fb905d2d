// What AI correction runs in the heavy-work threads: the functions of reading.ts below, and the
// 反馈单 PDF (feedbackPdf.ts).
import { heavyTasks } from '../../threads/pool';
import type * as reading from './reading';
import type * as feedbackPdf from './feedbackPdf';

export const runHeavy = heavyTasks<Pick<typeof reading, 'checkScan' | 'checkSheetImage' | 'renderSheet' | 'readGradingFile' | 'scoreSheetPages'>>(new URL('./reading.ts', import.meta.url));
export const runFeedbackHeavy = heavyTasks<Pick<typeof feedbackPdf, 'renderFeedback'>>(new URL('./feedbackPdf.ts', import.meta.url));

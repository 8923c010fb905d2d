// What wrong-answer books run in the heavy-work threads: rendering a volume paper or a student's 错题本 (volumePdf.ts).
import { heavyTasks } from '../../threads/pool';
import type * as volumePdf from './volumePdf';

export const runHeavy = heavyTasks<Pick<typeof volumePdf, 'renderVolumePaper' | 'renderStudentBook'>>(new URL('./volumePdf.ts', import.meta.url));

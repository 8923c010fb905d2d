// What wrong-answer books run in the heavy-work threads: rendering a volume paper (volumePdf.ts).
import { heavyTasks } from '../../threads/pool';
import type * as volumePdf from './volumePdf';

export const runHeavy = heavyTasks<Pick<typeof volumePdf, 'renderVolumePaper'>>(new URL('./volumePdf.ts', import.meta.url));

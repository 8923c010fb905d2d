// What AI correction runs in the heavy-work threads: the functions of reading.ts below.
import { heavyTasks } from '../../threads/pool';
import type * as reading from './reading';

export const runHeavy = heavyTasks<Pick<typeof reading, 'checkScan' | 'checkSheetImage' | 'renderSheet' | 'readGradingFile' | 'scoreSheetPages'>>(new URL('./reading.ts', import.meta.url));

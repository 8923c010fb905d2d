import { decodeGray } from '../../server/grading/image/gray';
import { recognisePage, type PageReading } from '../../server/grading/omr/recognise';
import type { BenchRow } from '../table';
import { heldOutLayout, heldOutSheets, type CaptureSet, type HeldOutSheet } from './omrSheets';

// `npm run bench -- omr`: the answer-sheet reader on held-out sheets (bench/readings/omrSheets.ts),
// flatbed scans and phone photos on a striped desk, each figure beside its target (issue 21).
// OMR_SHEETS=n sets the sheets per set (60 by default, as the issue measured).

export interface OmrSetFigures {
  items: number;
  correct: number;
  flagged: number;
  mustFlag: number;
  silent: number;
  /** Flags on items read right that did not need a teacher. */
  needlessFlags: number;
  rejected: number;
  sheets: number;
  seconds: number;
  /** Where the silent errors were, for the report: "no:read→truth". */
  silentList: string[];
}

export function scoreSheet(reading: PageReading, sheet: HeldOutSheet, f: OmrSetFigures, tag: string): void {
  for (const truth of sheet.items) {
    const it = reading.items.find((x) => x.no === truth.no);
    if (!it) continue;
    f.items++;
    const flagged = it.flags.length > 0;
    if (it.answer === truth.answer) f.correct++;
    if (flagged) f.flagged++;
    if (truth.mustFlag) f.mustFlag++;
    if (!flagged && (it.answer !== truth.answer || truth.mustFlag)) {
      f.silent++;
      f.silentList.push(`${tag}#${truth.no}:${it.answer || '∅'}→${truth.answer || '∅'}${sheet.lightStudent ? '(light)' : ''}`);
    }
    if (flagged && !truth.mustFlag && it.answer === truth.answer) f.needlessFlags++;
  }
}

export async function measureSet(set: CaptureSet, count: number): Promise<OmrSetFigures> {
  const layout = heldOutLayout();
  const sheets = await heldOutSheets(layout, set, count);
  const f: OmrSetFigures = { items: 0, correct: 0, flagged: 0, mustFlag: 0, silent: 0, needlessFlags: 0, rejected: 0, sheets: sheets.length, seconds: 0, silentList: [] };
  const lookup = (id: string) => (id === layout.sheetId ? layout : undefined);
  const t0 = performance.now();
  for (const [i, s] of sheets.entries()) {
    const reading = recognisePage(await decodeGray(s.jpg), lookup);
    if (!reading.ok) {
      f.rejected++;
      f.silentList.push(`${set}${i}: rejected (${reading.error})`);
      continue;
    }
    scoreSheet(reading, s, f, `${set}${i}`);
  }
  f.seconds = (performance.now() - t0) / 1000;
  return f;
}

export async function benchOmrHeldOut(): Promise<BenchRow[]> {
  const count = Number(process.env.OMR_SHEETS ?? 60);
  const rows: BenchRow[] = [];
  for (const set of ['scans', 'photos'] as const) {
    const f = await measureSet(set, count);
    if (f.silentList.length) console.error(`${set}: ${f.silentList.join(' ')}`);
    const p = `omr_heldout_${set}`;
    rows.push(
      { name: `${p}_item_accuracy`, value: f.correct / f.items, unit: '', target: '' },
      { name: `${p}_silent_errors`, value: f.silent, unit: 'items', target: '= 0' },
      { name: `${p}_flagged`, value: f.flagged / f.items, unit: '', target: `≤ 0.16 and ≤ needed + 0.02` },
      { name: `${p}_flag_needed`, value: f.mustFlag / f.items, unit: '', target: '' },
      { name: `${p}_flagged_right_needless`, value: f.needlessFlags / f.items, unit: '', target: '≤ 0.03' },
      { name: `${p}_pages_rejected`, value: f.rejected, unit: `of ${f.sheets}`, target: '= 0 (all legible)' },
      { name: `${p}_sheets_per_s`, value: f.sheets / f.seconds, unit: 'sheets/s', target: 'decode + read, one thread, incl. 300 dpi (speed target: grading group)' },
    );
  }
  return rows;
}

// Answer sheets the engine was never tuned on (bench/readings/omrSheets.ts: its own sheet, pencil
// strokes, scanner and striped-desk phone photos), the pages where a teacher used to get a wrong
// answer without a flag: half fills read as answers at 0.52–0.64 confidence, a light tick beside a
// mark missed, the ghost of a third mark beside two light ones, an erased ghost read as the answer.
import { describe, expect, it } from 'vitest';
import { heldOutLayout, heldOutSheets, type CaptureSet } from '../../bench/readings/omrSheets.js';
import { scoreSheet, type OmrSetFigures } from '../../bench/readings/omr.js';
import { decodeGray } from '../../server/grading/image/gray.js';
import { recognisePage } from '../../server/grading/omr/recognise.js';

const layout = heldOutLayout();

async function read(set: CaptureSet, indexes: number[]): Promise<OmrSetFigures> {
  const count = Math.max(...indexes) + 1;
  const sheets = await heldOutSheets(layout, set, count, 9100, indexes);
  const f: OmrSetFigures = { items: 0, correct: 0, flagged: 0, mustFlag: 0, silent: 0, needlessFlags: 0, rejected: 0, sheets: 0, seconds: 0, silentList: [] };
  for (const [k, s] of sheets.entries()) {
    const reading = recognisePage(await decodeGray(s.jpg), (id) => (id === layout.sheetId ? layout : undefined));
    expect(reading.ok, `${set} ${indexes[k]}`).toBe(true);
    if (reading.ok) scoreSheet(reading, s, f, `${set}${indexes[k]}`);
  }
  return f;
}

describe('held-out answer sheets', () => {
  it('scans: a half fill read at low confidence, or a lone mark a shadow could explain, goes to the teacher', { timeout: 120_000 }, async () => {
    const f = await read('scans', [10, 16, 42]);
    expect(f.silentList).toEqual([]);
  });

  it('phone photos on a striped desk: light ticks, ghosts beside light marks, half fills are never silent', { timeout: 240_000 }, async () => {
    const f = await read('photos', [9, 15, 33, 37]);
    expect(f.silentList).toEqual([]);
  });
});

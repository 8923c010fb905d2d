import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluate } from '../../server/grading/bench/omrTune';
import { decodeGray } from '../../server/grading/image/gray';
import { measureBubble } from '../../server/grading/omr/bubbles';
import { recognisePage } from '../../server/grading/omr/recognise';
import { heldOutLayout, heldOutSheets, type CaptureSet } from './omrSheets';

// Check, not calibration: the held-out sheets' bubble measures cached once, so a change to the
// decision rules (calibrated on server/grading/bench/omrTune.ts) is checked on them in a second.
//   npx tsx bench/readings/omrReplay.ts [sheets] [cacheDir]

const count = Number(process.argv[2] ?? 60);
const dir = process.argv[3] ?? join(process.env.TMPDIR ?? '/tmp', 'omr-replay');
const layout = heldOutLayout();
const lookup = (id: string) => (id === layout.sheetId ? layout : undefined);
for (const set of (process.env.SETS ?? 'scans,photos').split(',') as CaptureSet[]) {
  const file = join(dir, `${set}-${count}.json`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const sheets = await heldOutSheets(layout, set, count);
    const cached = [];
    for (const [i, s] of sheets.entries()) {
      const reading = recognisePage(await decodeGray(s.jpg), lookup);
      if (!reading.ok) throw new Error(`${set}${i}: ${reading.error}`);
      const ms = reading.page.objective.flatMap((it) => it.bubbles).map((b) => measureBubble(reading.image, reading.h, b));
      cached.push({ ms, items: s.items, light: s.lightStudent, capture: 0 });
    }
    writeFileSync(file, JSON.stringify(cached));
  }
  const sheets = JSON.parse(readFileSync(file, 'utf8'));
  const f = evaluate(layout, sheets, process.env.VERBOSE === '1');
  const p = (x: number) => `${((100 * x) / f.items).toFixed(1)} %`;
  console.log(`held-out ${set}: ${sheets.length} sheets, ${f.items} items; flagged ${p(f.flagged)} (needed ${p(f.mustFlag)}), needless ${p(f.needless)}, silent ${f.silent}`);
}

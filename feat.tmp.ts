import { readFileSync } from 'node:fs';
import { buildLayout } from './server/grading/layout/build';
import { sampleMathSheet } from './server/grading/corpus/sampleSheets';
import { heldOutLayout } from './bench/readings/omrSheets';
import { pageContext, normalise } from './server/grading/omr/bubbles';
const [file, which, lo, hi] = process.argv.slice(2);
const layout = which === 'tune' ? buildLayout(sampleMathSheet()) : heldOutLayout();
const page = layout.pages[0]!;
const sheets = JSON.parse(readFileSync(file!, 'utf8'));
for (const [si, s] of sheets.entries()) {
  let k = 0;
  const groups = page.objective.map((it) => { const g = it.bubbles.map((_, i) => k + i); k += it.bubbles.length; return g; });
  const ctx = pageContext(s.ms, groups);
  page.objective.forEach((it, ii) => {
    const truth = s.items.find((t: any) => t.no === it.no);
    const marks: string = truth.marks;
    const fills = groups[ii]!.map((j) => normalise(s.ms[j], ctx.levels));
    const maxF = Math.max(...fills);
    groups[ii]!.forEach((j, bi) => {
      const m = s.ms[j]; const f = fills[bi]!;
      if (f < Number(lo) || f > Number(hi)) return;
      const label = it.bubbles[bi]!.label;
      const st = (marks.split(' ').find((x) => x.startsWith(label + ':')) ?? 'empty').split(':').pop();
      const unev = ((m.peak ?? m.ink) - ctx.peakEmpty) / Math.max(m.ink - ctx.levels.empty, 0.03);
      const contrast = m.ink - ctx.levels.empty;
      console.log(`${st?.padEnd(6)} ${s.light ? 'L' : '-'} f ${f.toFixed(3)} unev ${unev.toFixed(2)} c/mark ${(contrast / ctx.markLevel).toFixed(2)} maxItem ${maxF.toFixed(2)} spread ${(m.paperSpread ?? 0).toFixed(2)} exits ${m.exits} mustFlag ${truth.mustFlag ? 1 : 0} s${si}#${it.no}`);
    });
  });
}

// One row per measured figure; printed as a table and then as `name: value` lines.
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
}

export function printRows(rows: BenchRow[]): void {
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1));
  const table = rows.map((r) => [r.name, fmt(r.value), r.unit, r.target]);
  const head = ['figure', 'value', 'unit', 'target'];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table) console.log(line(row));
  console.log('');
  for (const r of rows) console.log(`${r.name}: ${fmt(r.value)}`);
}

/** The p-th percentile (0–1) of measured milliseconds, to a tenth. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 10) / 10;
}

/** Milliseconds of `runs` calls after three warm-up calls. */
export async function timed(run: () => Promise<unknown>, runs = 50): Promise<number[]> {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return ms;
}

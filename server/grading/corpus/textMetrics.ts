/** Levenshtein distance over Unicode characters. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length]!;
}

/** Character accuracy of `read` against `truth`: 1 − edit distance / truth length. */
export function charAccuracy(truth: string, read: string): number {
  const n = [...truth].length;
  return n === 0 ? (read.length === 0 ? 1 : 0) : Math.max(0, 1 - editDistance(truth, read) / n);
}

// Greedy CTC decoding for the PP-OCR recogniser. The network emits, for each of T horizontal
// time steps, a probability over C classes: class 0 is the CTC "blank", classes 1..C-2 are the
// characters of ppocr_keys_v1.txt in file order, and the last class is a space.
// Decoding = take the best class per step, merge runs of the same class, drop blanks.

export interface CtcResult {
  text: string;
  /** Mean probability of the emitted characters; 0 when nothing was emitted. */
  confidence: number;
  /** Probability of each emitted character, aligned with [...text]. */
  charConfidence: number[];
}

export function ctcGreedyDecode(probs: Float32Array, offset: number, steps: number, classes: number, charset: readonly string[]): CtcResult {
  let text = '';
  const charConfidence: number[] = [];
  let prev = -1;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base]!;
    for (let c = 1; c < classes; c++) {
      const p = probs[base + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      text += charset[best] ?? '';
      charConfidence.push(bestP);
    }
    prev = best;
  }
  const confidence = charConfidence.length ? charConfidence.reduce((s, p) => s + p, 0) / charConfidence.length : 0;
  // Spaces the model emits beside a Chinese character or inside a number come from gaps in
  // handwriting, not from the writer: "还剩3 个" is "还剩3个", "1 00" is "100". Spaces between
  // Latin words stay. Confidences are kept only for the characters that remain.
  const chars = [...text];
  const keep = chars.map((ch, i) => {
    if (ch !== ' ') return true;
    const prev = chars[i - 1] ?? '';
    const next = chars[i + 1] ?? '';
    const han = /\p{Script=Han}|[，。：；！？、]/u;
    return !(prev === '' || next === '' || han.test(prev) || han.test(next) || (/\d/.test(prev) && /\d/.test(next)));
  });
  return {
    text: chars.filter((_, i) => keep[i]).join(''),
    confidence,
    charConfidence: charConfidence.filter((_, i) => keep[i]),
  };
}

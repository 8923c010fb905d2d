// Where the essay engine's sentence notes fall in the recognised text. The engine splits the text
// with its whitespace removed into sentences and points at a sentence and the words concerned; we
// map that back onto the text as written (line breaks kept) and cut it into runs, each with the
// notes covering it, so the screen and the printed feedback can mark them.
import type { EssayNote } from '../../../dataProvider/correct';

export interface Run {
  text: string;
  /** Indexes into the notes list of the notes covering this run (a run-on sentence and a typo in it). */
  notes: number[];
}

export const NOTE_LABELS: Record<EssayNote['kind'], string> = {
  typo: '错别字',
  repeat: '重复',
  runon: '长句',
  idiom: '好词',
  rhetoric: '修辞',
};

/** Colours per kind: problems warm, praise cool; run-on sentences are underlined, not filled. */
export const NOTE_COLORS: Record<EssayNote['kind'], string> = {
  typo: '#ffcdd2',
  repeat: '#ffe0b2',
  runon: '#e65100',
  idiom: '#c8e6c9',
  rhetoric: '#bbdefb',
};

export function highlightRuns(text: string, sentences: string[], notes: EssayNote[]): Run[] {
  // Offsets of the non-space characters in the original text.
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i]!)) positions.push(i);
  const stripped = positions.map((i) => text[i]).join('');
  if (sentences.join('') !== stripped) return [{ text, notes: [] }];
  const starts: number[] = [];
  let at = 0;
  for (const s of sentences) {
    starts.push(at);
    at += s.length;
  }
  // Each note as a range of the original text.
  const ranges: { from: number; to: number; note: number }[] = [];
  notes.forEach((n, k) => {
    const sentence = sentences[n.sentence];
    const start = starts[n.sentence];
    if (sentence === undefined || start === undefined) return;
    let from = start;
    let to = start + sentence.length;
    if (n.kind !== 'runon') {
      const idx = sentence.indexOf(n.excerpt);
      if (idx < 0 || !n.excerpt) return;
      from = start + idx;
      to = from + n.excerpt.length;
    }
    ranges.push({ from: positions[from]!, to: positions[to - 1]! + 1, note: k });
  });
  const cuts = [...new Set([0, text.length, ...ranges.flatMap((r) => [r.from, r.to])])].sort((a, b) => a - b);
  const runs: Run[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i]!;
    const to = cuts[i + 1]!;
    const covering = ranges.filter((r) => r.from <= from && r.to >= to).map((r) => r.note);
    const last = runs[runs.length - 1];
    if (last && !covering.length && !last.notes.length) last.text += text.slice(from, to);
    else runs.push({ text: text.slice(from, to), notes: covering });
  }
  return runs;
}

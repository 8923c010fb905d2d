import type { OcrLine } from '../ocr/engine.js';

// Homework photographed without our answer sheet: the page is read line by line and each line is
// attached to a question of the assignment. A line is attached when it starts with a question
// number ("3.", "（3）", "3、") or repeats a question's printed stem; lines after it belong to the
// same question until the next one starts. Anything else is reported as unaligned for the
// teacher, never silently dropped or guessed.

export interface HomeworkQuestion {
  no: number;
  /** Printed stem, when known; helps when the student did not write the number. */
  text?: string;
}

export interface AlignedAnswer {
  no: number;
  /** The student's text with the number and any copied stem removed. */
  text: string;
  confidence: number;
  lines: OcrLine[];
}

export interface HomeworkReading {
  answers: AlignedAnswer[];
  /** Lines that could not be tied to any question of the assignment. */
  unaligned: OcrLine[];
  /** Questions of the assignment with nothing written for them. */
  missing: number[];
}

const NUMBER = /^\s*[（(]?\s*(\d{1,3})\s*[)）.．、:：]\s*/;

function bigrams(s: string): Set<string> {
  const t = s.replace(/[\s\p{P}]/gu, '');
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) out.add(t.slice(i, i + 2));
  return out;
}

/** Share of the stem's bigrams found in the line. */
function stemSimilarity(line: string, stem: string): number {
  const a = bigrams(line);
  const b = bigrams(stem);
  if (b.size === 0) return 0;
  let hit = 0;
  for (const g of b) if (a.has(g)) hit++;
  return hit / b.size;
}

/** With no question list, every question number written on the page starts a question. */
export function alignHomework(lines: OcrLine[], questions: HomeworkQuestion[]): HomeworkReading {
  const open = questions.length === 0;
  const known = new Map(questions.map((q) => [q.no, q]));
  const groups = new Map<number, { text: string[]; lines: OcrLine[] }>();
  const unaligned: OcrLine[] = [];
  let current: number | null = null;
  for (const line of lines) {
    const m = NUMBER.exec(line.text);
    let rest = line.text;
    if (m && (open || known.has(Number(m[1])))) {
      current = Number(m[1]);
      rest = line.text.slice(m[0].length);
    } else if (m) {
      // A number that is not in this assignment: the lines that follow are not ours to guess.
      current = null;
      unaligned.push(line);
      continue;
    } else {
      const stem = questions.find((q) => q.text && stemSimilarity(line.text, q.text) >= 0.6);
      if (stem) {
        current = stem.no;
        rest = '';
      }
    }
    if (current === null) {
      unaligned.push(line);
      continue;
    }
    const q = known.get(current);
    if (q?.text && rest && stemSimilarity(rest, q.text) >= 0.6) rest = '';
    const g = groups.get(current) ?? { text: [], lines: [] };
    if (rest) g.text.push(rest.trim());
    g.lines.push(line);
    groups.set(current, g);
  }
  const answers = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([no, g]) => ({
      no,
      text: g.text.join(''),
      confidence: Math.min(...g.lines.map((l) => l.confidence)),
      lines: g.lines,
    }));
  return { answers, unaligned, missing: questions.filter((q) => !groups.get(q.no)?.text.length).map((q) => q.no) };
}

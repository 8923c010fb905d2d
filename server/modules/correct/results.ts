// One shape for every kind of graded work, so teachers review answer sheets, homework photos and
// essays the same way: a list of items with the machine's points, flags and reasons.
import type { EssayResult, HomeworkReading, ReadPage, Submission } from '../../grading';

export interface ReviewItem {
  no: number;
  given: string;
  expected?: string;
  /** Machine points; null when there is no key to score against (homework without answers). */
  score: number | null;
  max: number | null;
  needsReview: boolean;
  reasons: string[];
}

export interface GradedWork {
  kind: 'sheet' | 'homework' | 'essay';
  items: ReviewItem[];
  /** The engine's own output, for the report screens. */
  detail: unknown;
  /** The uploaded file this work was read from (homework photos and essays: one file each). */
  fileId?: number;
  /** The teacher's comment to the student, set by POST /result/review (bounded there). */
  teacherComment?: string;
}

export function fromSubmission(s: Submission): GradedWork {
  const items: ReviewItem[] = s.score
    ? s.score.items.map((i) => ({ no: i.no, given: i.given, expected: i.expected, score: i.score, max: i.max, needsReview: i.needsReview, reasons: i.reasons }))
    : s.pages.flatMap((p) => p.items).map((i) => ({ no: i.no, given: i.answer, score: null, max: null, needsReview: i.flags.length > 0, reasons: [] }));
  const reasons = [
    ...(s.studentId === null ? ['未识别出学生'] : []),
    ...(s.missingPages.length ? [`缺少第 ${s.missingPages.join('、')} 页`] : []),
  ];
  if (reasons.length && items[0]) items[0] = { ...items[0], needsReview: true, reasons: [...reasons, ...items[0].reasons] };
  return { kind: 'sheet', items, detail: { sheetId: s.sheetId, studentId: s.studentId, missingPages: s.missingPages, essays: s.essays, pages: s.pages.map(pageTrace) } };
}

/** A page as the scoring job hands it over: tagged with the uploaded file it came from. */
export type FiledPage = ReadPage & { fileId?: number };

/**
 * What the review screen draws over a scan: which file the page came from, where the layout
 * lies on it, and how each bubble and fill-in box was read. Small: numbers per bubble and box.
 */
export interface PageTrace {
  page: number;
  fileId: number | null;
  h: number[] | null;
  bubbles: { no: number; label: string; fill: number; state: string }[];
  fills: { no: number; box: number; text: string; confidence: number; blank: boolean }[];
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function pageTrace(p: FiledPage): PageTrace {
  return {
    page: p.page,
    fileId: p.fileId ?? null,
    h: p.h ?? null,
    bubbles: p.items.flatMap((i) => i.bubbles.map((b) => ({ no: i.no, label: b.label, fill: round3(b.fill), state: b.state }))),
    fills: p.fills.map((f) => ({ no: f.no, box: f.box, text: f.text, confidence: round3(f.confidence), blank: f.blank })),
  };
}

export function fromHomework(reading: HomeworkReading): GradedWork {
  const items: ReviewItem[] = reading.answers.map((a) => ({
    no: a.no,
    given: a.text,
    score: null,
    max: null,
    needsReview: a.confidence < 0.8,
    reasons: a.confidence < 0.8 ? ['字迹识别把握不大，请老师核对'] : [],
  }));
  for (const no of reading.missing) items.push({ no, given: '', score: null, max: null, needsReview: true, reasons: ['未找到这道题的作答'] });
  items.sort((a, b) => a.no - b.no);
  // Where each answer sits on the photo (pixels), for the review screen to outline it.
  const regions = reading.answers.flatMap((a) => a.lines.map((l) => ({ no: a.no, x: l.box.x, y: l.box.y, w: l.box.w, h: l.box.h })));
  return { kind: 'homework', items, detail: { unaligned: reading.unaligned.map((l) => ({ text: l.text, confidence: l.confidence })), regions } };
}

export function fromEssay(text: string, essay: EssayResult, fullMarks: number): GradedWork {
  return {
    kind: 'essay',
    items: [{ no: 1, given: `${[...text].length} 字`, score: essay.score, max: fullMarks, needsReview: true, reasons: ['作文为机器评分，请老师确认'] }],
    detail: { text, essay },
  };
}

/** The teacher's points where given, the machine's otherwise. */
export function totals(work: GradedWork, review: Record<string, number> | null | undefined) {
  let score = 0;
  let max = 0;
  let scored = false;
  let maxKnown = true;
  for (const item of work.items) {
    const points = review?.[String(item.no)] ?? item.score;
    if (points !== null && points !== undefined) {
      score += points;
      scored = true;
    }
    if (item.max === null) maxKnown = false;
    else max += item.max;
  }
  const needsReview = work.items.some((i) => i.needsReview && review?.[String(i.no)] === undefined);
  return { score: scored ? Math.round(score * 100) / 100 : null, maxScore: maxKnown ? max : null, needsReview };
}

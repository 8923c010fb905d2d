// Semester and term rules of SPEC §9. Months are 1–12. Values are 'YYYY' + '01' | '02' | '03'.

export interface Option<V = string> {
  label: string;
  value: V;
}

const yearSpan = (y: number) => `${y}-${y + 1}学年`;

/** The academic year a date belongs to starts in August. */
function startsNewYear(month: number): boolean {
  return month >= 8;
}

/** January to July: last year's second term (year-1 + '02'); August to December: this year's first term. */
export function currentSemester(date: Date = new Date()): string {
  const y = date.getFullYear();
  return startsNewYear(date.getMonth() + 1) ? `${y}01` : `${y - 1}02`;
}

/** Before August: last year's first and second terms; otherwise this year's first term. */
export function termOptions(date: Date = new Date()): Option[] {
  const y = date.getFullYear();
  if (startsNewYear(date.getMonth() + 1)) return [{ label: `${yearSpan(y)}上学期`, value: `${y}01` }];
  return [
    { label: `${yearSpan(y - 1)}上学期`, value: `${y - 1}01` },
    { label: `${yearSpan(y - 1)}下学期`, value: `${y - 1}02` },
  ];
}

/** A term value as the header names it: '202601' → '2026-2027学年上学期', '202603' → '2026-2027学年'. */
export function termLabel(term: string): string {
  const year = Number(term.slice(0, 4));
  const part = term.slice(4);
  return `${yearSpan(year)}${part === '01' ? '上学期' : part === '02' ? '下学期' : ''}`;
}

/** Three academic years (suffix '03'), ending with last year before August, else this year. */
export function academicYearOptions(date: Date = new Date()): Option[] {
  const y = date.getFullYear();
  const last = startsNewYear(date.getMonth() + 1) ? y : y - 1;
  return [last - 2, last - 1, last].map((year) => ({ label: yearSpan(year), value: `${year}03` }));
}

/** "Years offered elsewhere": the current year and the two before, newest first. */
export function recentYears(date: Date = new Date()): number[] {
  const y = date.getFullYear();
  return [y, y - 1, y - 2];
}

export type NotebookTerm = 'LAST' | 'NEXT' | 'ALL';
export const NOTEBOOK_TERMS: Option<NotebookTerm>[] = [
  { label: '上学期', value: 'LAST' },
  { label: '下学期', value: 'NEXT' },
  { label: '全学年', value: 'ALL' },
];

/** Wrong-notebook term: from August on it is the first term (LAST), otherwise the second (NEXT). */
export function notebookTerm(date: Date = new Date()): NotebookTerm {
  return startsNewYear(date.getMonth() + 1) ? 'LAST' : 'NEXT';
}

/** The first day of the running term: 1 August for the first term (through January), 1 February for the second. */
export function termStart(date: Date = new Date()): Date {
  const y = date.getFullYear();
  const m = date.getMonth() + 1;
  if (m >= 8) return new Date(y, 7, 1);
  if (m >= 2) return new Date(y, 1, 1);
  return new Date(y - 1, 7, 1);
}

/** SPEC §3 time range (week 1, month 2, term 0) → the first instant it covers. */
export function rangeStart(dateType: number, now: Date = new Date()): Date {
  const day = 24 * 3600 * 1000;
  if (dateType === 1) return new Date(now.getTime() - 7 * day);
  if (dateType === 2) return new Date(now.getTime() - 30 * day);
  return termStart(now);
}

/**
 * The academic-year value ('YYYY03') containing the current semester: the default of the
 * learning-year filter, so that it names one of academicYearOptions().
 */
export function currentAcademicYear(date: Date = new Date()): string {
  return `${currentSemester(date).slice(0, 4)}03`;
}

// Loads the demo's teaching content: knowledge-point trees, the question bank and the exercise
// books (chapters → sections → pages, with each question's answer area on its page). Bulk inserts:
// a handful of statements for ~1,500 questions.
import type { Db } from '../db';
import * as t from '../db/schema';
import { QuestionType, Stage } from '../../src/domain/content';
import { random, slipsOf, type BookSpec, type Draft } from './draft';
import { mathBooks } from './math';
import { chineseBooks } from './chinese';
import { englishBooks } from './english';
import { physicsBooks } from './physics';
import { historyBooks } from './history';

export const DEMO_BOOKS: BookSpec[] = [...mathBooks, ...chineseBooks, ...englishBooks, ...physicsBooks, ...historyBooks];

/** Questions per section printed in the book; the rest of a section's variants are bank-only. */
export const BOOK_QUESTIONS_PER_SECTION = 8;
const BANK_QUESTIONS_PER_SECTION = 4;
const QUESTIONS_PER_PAGE = 4;

export interface SeededQuestion {
  id: number;
  type: number;
  points: number;
  /** Wrong answers students typically write (fill-ins and worked problems). */
  slips?: string[];
  /** The question's text, for a review to pick different kinds of question. */
  stem?: string;
}
export interface SeededPage {
  id: number;
  pageNo: number;
  questions: SeededQuestion[];
}
export interface SeededSection {
  id: number;
  title: string;
  pages: SeededPage[];
  bank: SeededQuestion[];
}
export interface SeededBook {
  id: number;
  subject: string;
  gradeLevel: number;
  term: number;
  sections: SeededSection[];
}

/**
 * A section's distinct variants: the k-th is the maker's k-th form (a page mixes the forms), drawn
 * again with other numbers when it repeats an earlier stem.
 */
export function variants(book: BookSpec, bookNo: number, sectionNo: number, make: (rng: () => number, i: number) => Draft): Draft[] {
  const wanted = BOOK_QUESTIONS_PER_SECTION + BANK_QUESTIONS_PER_SECTION;
  const seen = new Set<string>();
  const drafts: Draft[] = [];
  for (let k = 0; k < wanted; k++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const draft = make(random(bookNo * 100_000 + sectionNo * 1000 + k * 20 + attempt), k);
      if (seen.has(draft.stem)) continue;
      seen.add(draft.stem);
      drafts.push(draft);
      break;
    }
    if (drafts.length <= k) throw new Error(`${book.title}: too few distinct questions in section ${sectionNo + 1}`);
  }
  return drafts;
}

/** Answer-area height on the printed page (mm), by question type. */
function areaHeight(type: number): number {
  if (type === QuestionType.answer) return 40;
  if (type === QuestionType.blank) return 14;
  return 10;
}

async function insertChunked<T>(db: Db, table: Parameters<Db['insert']>[0], values: object[], chunk = 800): Promise<T[]> {
  const out: T[] = [];
  for (let k = 0; k < values.length; k += chunk) {
    out.push(...((await db.insert(table).values(values.slice(k, k + chunk) as never).returning()) as T[]));
  }
  return out;
}

export async function seedContent(db: Db, subjectId: (name: string) => number): Promise<SeededBook[]> {
  // Knowledge points: chapters' topics are the parents, sections' topics the leaves.
  const parents = new Map<string, { subject: string; name: string; order: number }>();
  const leaves = new Map<string, { subject: string; parent: string; name: string; order: number }>();
  for (const book of DEMO_BOOKS) {
    for (const chapter of book.chapters) {
      const pk = `${book.subject}|${chapter.point}`;
      if (!parents.has(pk)) parents.set(pk, { subject: book.subject, name: chapter.point, order: parents.size });
      for (const section of chapter.sections) {
        const lk = `${pk}|${section.point}`;
        if (!leaves.has(lk)) leaves.set(lk, { subject: book.subject, parent: pk, name: section.point, order: leaves.size });
      }
    }
  }
  const parentRows = await db
    .insert(t.knowledgePoints)
    .values([...parents.values()].map((p) => ({ subjectId: subjectId(p.subject), stage: Stage.junior, name: p.name, sortOrder: p.order })))
    .returning();
  const parentId = new Map([...parents.keys()].map((k, i) => [k, parentRows[i].id]));
  const leafRows = await db
    .insert(t.knowledgePoints)
    .values([...leaves.values()].map((l) => ({ subjectId: subjectId(l.subject), stage: Stage.junior, parentId: parentId.get(l.parent)!, name: l.name, sortOrder: l.order })))
    .returning();
  const leafId = new Map([...leaves.keys()].map((k, i) => [k, leafRows[i].id]));

  const bookRows = await db
    .insert(t.exerciseBooks)
    .values(DEMO_BOOKS.map((b) => ({ title: b.title, subjectId: subjectId(b.subject), gradeLevel: b.gradeLevel, term: b.term ?? 1, edition: b.edition })))
    .returning();

  // Every section's variants, in book order, so ids follow the books.
  const sectionDrafts = DEMO_BOOKS.flatMap((book, b) =>
    book.chapters.flatMap((chapter, c) =>
      chapter.sections.map((section, s) => ({ b, c, s, point: leafId.get(`${book.subject}|${chapter.point}|${section.point}`)!, drafts: variants(book, b, c * 10 + s, section.make) })),
    ),
  );
  const questionRows = await insertChunked<typeof t.questions.$inferSelect>(
    db,
    t.questions,
    sectionDrafts.flatMap(({ b, point, drafts }) =>
      drafts.map((d, k) => ({
        subjectId: subjectId(DEMO_BOOKS[b].subject),
        stage: Stage.junior,
        gradeLevel: DEMO_BOOKS[b].gradeLevel,
        type: d.type,
        stem: d.stem,
        options: d.options ?? null,
        answer: d.answer,
        analysis: d.analysis,
        difficulty: d.difficulty,
        points: d.points,
        knowledgePointIds: [point],
        source: k < BOOK_QUESTIONS_PER_SECTION ? DEMO_BOOKS[b].title : '学助原创题库',
      })),
    ),
  );

  const chapterRows = await db
    .insert(t.bookChapters)
    .values(DEMO_BOOKS.flatMap((book, b) => book.chapters.map((chapter, c) => ({ bookId: bookRows[b].id, title: chapter.title, sortOrder: c + 1 }))))
    .returning();
  const chapterId = (b: number, c: number) => chapterRows.find((r) => r.bookId === bookRows[b].id && r.sortOrder === c + 1)!.id;
  const sectionRows = await db
    .insert(t.bookSections)
    .values(sectionDrafts.map(({ b, c, s, point }) => ({ bookId: bookRows[b].id, chapterId: chapterId(b, c), title: DEMO_BOOKS[b].chapters[c].sections[s].title, sortOrder: s + 1, knowledgePointId: point })))
    .returning();

  // Pages: each section's printed questions, four to a page, numbered through the book.
  const pageNo = new Map<number, number>();
  const pagePlan = sectionDrafts.flatMap((sd, i) => {
    const pages = Math.ceil(BOOK_QUESTIONS_PER_SECTION / QUESTIONS_PER_PAGE);
    return Array.from({ length: pages }, () => {
      const n = (pageNo.get(sd.b) ?? 0) + 1;
      pageNo.set(sd.b, n);
      return { bookId: bookRows[sd.b].id, sectionId: sectionRows[i].id, pageNo: n };
    });
  });
  const pageRows = await db.insert(t.bookPages).values(pagePlan).returning();

  let q = 0;
  let p = 0;
  const placements: (typeof t.bookPageQuestions.$inferInsert)[] = [];
  const books: SeededBook[] = DEMO_BOOKS.map((book, b) => ({ id: bookRows[b].id, subject: book.subject, gradeLevel: book.gradeLevel, term: book.term ?? 1, sections: [] }));
  for (const [i, sd] of sectionDrafts.entries()) {
    const section: SeededSection = { id: sectionRows[i].id, title: sectionRows[i].title, pages: [], bank: [] };
    const rowsOfSection = questionRows.slice(q, q + sd.drafts.length);
    q += sd.drafts.length;
    const seeded = (r: (typeof rowsOfSection)[number], k: number): SeededQuestion => ({ id: r.id, type: r.type, points: r.points, slips: slipsOf(sd.drafts[k]), stem: r.stem });
    const printed = rowsOfSection.slice(0, BOOK_QUESTIONS_PER_SECTION);
    for (let k = 0; k < printed.length; k += QUESTIONS_PER_PAGE) {
      const page = pageRows[p++];
      let y = 24;
      const onPage = printed.slice(k, k + QUESTIONS_PER_PAGE);
      onPage.forEach((row, order) => {
        // The stem takes about 14 mm; the answer area sits below it, full text width.
        y += 14;
        const height = areaHeight(row.type);
        placements.push({ pageId: page.id, questionId: row.id, sortOrder: order + 1, answerArea: { x: 20, y, width: 170, height } });
        y += height + 6;
      });
      section.pages.push({ id: page.id, pageNo: page.pageNo, questions: onPage.map((r, order) => seeded(r, k + order)) });
    }
    section.bank = rowsOfSection.slice(BOOK_QUESTIONS_PER_SECTION).map((r, k) => seeded(r, BOOK_QUESTIONS_PER_SECTION + k));
    books[sd.b].sections.push(section);
  }
  await insertChunked(db, t.bookPageQuestions, placements);
  return books;
}

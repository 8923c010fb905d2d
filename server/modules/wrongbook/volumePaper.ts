// 错题组卷 (/wrongbook/volumnPaper): a paper of a class's wrong questions, for the whole class
// (班级卷) or per student (个性化: each student gets only the chosen questions they got wrong), with
// up to two similar bank questions per question (举一反三) and, per question, either the bank's
// stem re-typeset or the student's own answer cropped from their graded scan. The PDF ends each
// section with the student's named answer sheet from the grading engine; the sheet is stored like
// POST /correct/sheet/fromExam stores one, so the re-practice can be graded in AI批改.
// Reads: candidates from the work_question_stats rollup; the personalised split reads answer_records
// of one class and at most 50 questions (a bounded read on the class's wrong-answer index).
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { allow } from '../../auth/plugin';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, homeworks, type WorkItem } from '../../db/schema';
import { ApiError, badRequest, forbidden, notFound, ok } from '../../http/envelope';
import { fileReply } from '../../http/download';
import { schoolZone } from '../../http/schoolZone';
import { dateOnly } from '../../../src/domain/format';
import { runHeavy } from './threadTasks';
import type { SectionSpec, SheetLayout, SheetSpec } from '../../grading';
import { QuestionType, SourceType } from '../../../src/domain/content';
import { currentSemester } from '../../../src/domain/semester';
// The paper's PDF module (pdf-lib, fontkit, the CJK font) loads when a sheet is laid out, not with the API.
import type { paperSheetSpec, PrintPaper } from '../minerva/paperPdf';
import { keyOf, type KeyItem } from '../correct/fromExam';
import { rosterKey } from '../correct/jobs';
import { sheetView } from '../correct/view';
import type { PageTrace } from '../correct/results';
import { classMistakes } from './classBook';
import type { VolumeDoc, VolumeItem } from './volumePdf';
import { issueFamilyLinks } from '../family/links';
import { familyPath } from '../family/access';
import { FAMILY_LIMITS } from '../../../src/domain/family';

const BASE = '/api/wrongbook/v1.0/web/volumePaper';
export const MAX_QUESTIONS = 50;
export const MAX_VARIANTS = 2;
const CANDIDATES = 20;
const teachers = allow({ roles: ['mpTeacher', 'teacher', 'teaching'] });

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Query = Type.Object({ classId: Id, courseId: Id });
const Body = Type.Object(
  {
    classId: Id,
    courseId: Id,
    questionIds: Type.Array(Id, { minItems: 1, maxItems: MAX_QUESTIONS, uniqueItems: true }),
    mode: Type.Union([Type.Literal('class'), Type.Literal('personal')]),
    variants: Type.Integer({ minimum: 0, maximum: MAX_VARIANTS }),
    /** Question ids printed from the student's scan instead of re-typeset (personalised only). */
    scanIds: Type.Optional(Type.Array(Id, { maxItems: MAX_QUESTIONS, uniqueItems: true })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
    /** Personalised PDF: issue each student a 家长查看 link (30 days) and print it as a QR code. */
    familyQr: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
type BodyT = Static<typeof Body>;

interface Scope {
  teacherId: number;
  tenantId: number;
  classId: number;
  className: string;
  subjectId: number;
  courseId: number;
  courseName: string;
}

/** The class and course must be one the teacher teaches; anything else is "not found". */
async function scopeOf(db: Db, p: Principal, classId: number, courseId: number): Promise<Scope> {
  if (p.tenantId === null) throw forbidden();
  const [row] = await rows<Scope>(db, sql`
    SELECT t.id AS "teacherId", c.tenant_id AS "tenantId", c.id AS "classId", c.name AS "className",
           co.subject_id AS "subjectId", co.id AS "courseId", co.name AS "courseName"
      FROM teaching_assignments ta
      JOIN teachers t ON t.id = ta.teacher_id AND t.user_id = ${p.userId}
      JOIN classes c ON c.id = ta.class_id AND c.tenant_id = ${p.tenantId}
      JOIN courses co ON co.id = ta.course_id
     WHERE ta.class_id = ${classId} AND ta.course_id = ${courseId} AND ta.tenant_id = ${p.tenantId}
     LIMIT 1`);
  if (!row) throw notFound('班级或课程不存在，或您不是该班级的任课老师');
  return row;
}

interface QuestionRow {
  id: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  answer: string;
  difficulty: number;
  points: number;
  knowledgePointIds: number[];
  children: { type: number; stem: string; options: { key: string; text: string }[] | null }[];
}

const intArray = (ids: number[]) => `{${ids.join(',')}}`;

/** Bank questions the tenant may use (its own and the shared bank), of the course's subject. */
async function loadQuestions(db: Db, s: Scope, ids: number[]): Promise<QuestionRow[]> {
  if (!ids.length) return [];
  return rows<QuestionRow>(db, sql`
    SELECT q.id, q.type, q.stem, q.options, q.answer, q.difficulty, q.points, q.knowledge_point_ids AS "knowledgePointIds",
           coalesce((SELECT json_agg(json_build_object('type', c.type, 'stem', c.stem, 'options', c.options) ORDER BY c.sort_order, c.id)
                       FROM questions c WHERE c.parent_id = q.id), '[]'::json) AS children
      FROM questions q
     WHERE q.id = ANY(${intArray(ids)}::int[]) AND q.parent_id IS NULL AND q.subject_id = ${s.subjectId}
       AND (q.tenant_id IS NULL OR q.tenant_id = ${s.tenantId})`);
}

/**
 * Up to `count` similar questions per chosen question: same type, sharing a knowledge point, the
 * nearest difficulty (within one level), never one already on the paper or given to another.
 */
export async function similarQuestions(db: Db, s: Scope, chosen: QuestionRow[], count: number): Promise<Map<number, QuestionRow[]>> {
  const out = new Map<number, QuestionRow[]>();
  if (!count || !chosen.length) return out;
  const withKp = chosen.filter((q) => q.knowledgePointIds.length);
  if (!withKp.length) return out;
  const picks = await rows<{ forId: number; id: number }>(db, sql`
    SELECT src.id AS "forId", v.id
      FROM questions src
      CROSS JOIN LATERAL (
        SELECT q.id FROM questions q
         WHERE q.subject_id = src.subject_id AND q.type = src.type AND q.parent_id IS NULL
           AND q.knowledge_point_ids && src.knowledge_point_ids AND abs(q.difficulty - src.difficulty) <= 1
           AND (q.tenant_id IS NULL OR q.tenant_id = ${s.tenantId})
           AND q.id <> ALL(${intArray(chosen.map((q) => q.id))}::int[])
         ORDER BY abs(q.difficulty - src.difficulty), q.id
         LIMIT ${(MAX_VARIANTS + 1) * 4}) v
     WHERE src.id = ANY(${intArray(withKp.map((q) => q.id))}::int[])`);
  const used = new Set<number>();
  const wanted = new Map<number, number[]>();
  for (const q of chosen) wanted.set(q.id, []);
  // In the order of the paper, so an earlier question gets its nearest match first.
  for (const q of chosen) {
    for (const pick of picks) {
      const list = wanted.get(q.id)!;
      if (pick.forId !== q.id || list.length >= count || used.has(pick.id)) continue;
      used.add(pick.id);
      list.push(pick.id);
    }
  }
  const loaded = new Map((await loadQuestions(db, s, [...used])).map((q) => [q.id, q]));
  for (const [id, list] of wanted) out.set(id, list.map((v) => loaded.get(v)!).filter(Boolean));
  return out;
}

interface Student {
  id: number;
  name: string;
  studentNo: string;
}

/** Items numbered through the whole paper: each question followed by its similar ones. */
interface Numbered {
  no: number;
  q: QuestionRow;
  /** The chosen question this one practises (itself for a chosen question). */
  of: number;
  variant: boolean;
}

interface Plan {
  scope: Scope;
  title: string;
  mode: BodyT['mode'];
  items: Numbered[];
  roster: Student[];
  /** Personalised: each student's chosen questions they got wrong. */
  wrongOf: Map<number, number[]>;
  errorRate: Map<number, { answered: number; wrong: number }>;
  scanIds: Set<number>;
}

async function plan(db: Db, p: Principal, body: BodyT): Promise<Plan> {
  const scope = await scopeOf(db, p, body.classId, body.courseId);
  const found = await loadQuestions(db, scope, body.questionIds);
  const byId = new Map(found.map((q) => [q.id, q]));
  const missing = body.questionIds.filter((id) => !byId.has(id));
  if (missing.length) throw notFound(`题目不存在或不属于该课程：${missing.slice(0, 5).join('、')}`);
  const chosen = body.questionIds.map((id) => byId.get(id)!);
  const similar = await similarQuestions(db, scope, chosen, body.variants);
  const items: Numbered[] = [];
  for (const q of chosen) {
    items.push({ no: items.length + 1, q, of: q.id, variant: false });
    for (const v of similar.get(q.id) ?? []) items.push({ no: items.length + 1, q: v, of: q.id, variant: true });
  }
  const roster = await rows<Student>(db, sql`
    SELECT id, name, student_no AS "studentNo" FROM students WHERE class_id = ${scope.classId} AND status = 0 ORDER BY student_no, id`);
  const stats = await rows<{ questionId: number; answered: number; correct: number }>(db, sql`
    SELECT question_id AS "questionId", sum(answered)::int AS answered, sum(correct)::int AS correct
      FROM work_question_stats WHERE tenant_id = ${scope.tenantId} AND class_id = ${scope.classId}
       AND question_id = ANY(${intArray(body.questionIds)}::int[]) GROUP BY question_id`);
  const errorRate = new Map(stats.map((r) => [r.questionId, { answered: r.answered, wrong: r.answered - r.correct }]));
  const wrongOf = new Map<number, number[]>();
  if (body.mode === 'personal') {
    // One class, at most 50 questions: the class's wrong rows, on its partial index.
    const wrong = await rows<{ studentId: number; questionId: number }>(db, sql`
      SELECT DISTINCT student_id AS "studentId", question_id AS "questionId" FROM answer_records
       WHERE tenant_id = ${scope.tenantId} AND class_id = ${scope.classId} AND NOT is_correct
         AND question_id = ANY(${intArray(body.questionIds)}::int[])`);
    for (const r of wrong) wrongOf.set(r.studentId, [...(wrongOf.get(r.studentId) ?? []), r.questionId]);
  }
  if (!roster.length) throw badRequest('该班级还没有学生');
  const title = (body.title ?? `${scope.className}${scope.courseName}错题卷`).slice(0, 40);
  const scanIds = new Set(body.mode === 'personal' ? (body.scanIds ?? []).filter((id) => byId.has(id)) : []);
  return { scope, title, mode: body.mode, items, roster, wrongOf, errorRate, scanIds };
}

/** The students who get a section: everyone for the class paper, those with a wrong question for a personalised one. */
function sectionsOf(pl: Plan): { student: Student | null; items: Numbered[] }[] {
  if (pl.mode === 'class') return [{ student: null, items: pl.items }];
  return pl.roster
    .filter((s) => pl.wrongOf.get(s.id)?.length)
    .map((s) => {
      const mine = new Set(pl.wrongOf.get(s.id));
      return { student: s, items: pl.items.filter((it) => mine.has(it.of)) };
    });
}

interface ScanRef {
  studentId: number;
  questionId: number;
  no: number;
  sheetId: string;
  pages: PageTrace[];
}

/** The graded sheet scans of the class that hold the chosen questions, newest first (one per student and question). */
async function scanRefs(db: Db, s: Scope, questionIds: number[]): Promise<ScanRef[]> {
  if (!questionIds.length) return [];
  return rows<ScanRef>(db, sql`
    SELECT DISTINCT ON (r.student_id, (it.v->>'questionId')::int)
           r.student_id AS "studentId", (it.v->>'questionId')::int AS "questionId", it.no::int AS no,
           g.sheet_id AS "sheetId", r.result->'detail'->'pages' AS pages
      FROM grading_tasks g
      JOIN grading_results r ON r.task_id = g.id AND r.student_id IS NOT NULL
      CROSS JOIN LATERAL jsonb_each(coalesce(g.answer_key->'work'->'items', '{}'::jsonb)) AS it(no, v)
     WHERE g.tenant_id = ${s.tenantId} AND g.class_id = ${s.classId} AND g.sheet_id IS NOT NULL
       AND it.no ~ '^[0-9]{1,4}$' AND (it.v->>'questionId') ~ '^[0-9]{1,10}$'
       AND (it.v->>'questionId')::int = ANY(${intArray(questionIds)}::int[])
       AND jsonb_typeof(r.result->'detail'->'pages') = 'array'
     ORDER BY r.student_id, (it.v->>'questionId')::int, r.created_at DESC
     LIMIT 5000`);
}

/** Cuts each student's answer region out of their scan (photos and image scans; a PDF scan is not cut). */
async function cropScans(app: FastifyInstance, s: Scope, refs: ScanRef[]): Promise<Map<string, Uint8Array>> {
  const crops = new Map<string, Uint8Array>();
  const layouts = new Map<string, SheetLayout | null>();
  for (const ref of refs) {
    if (!layouts.has(ref.sheetId)) {
      const [row] = await rows<{ layout: SheetLayout }>(app.db, sql`SELECT layout FROM answer_sheets WHERE id = ${ref.sheetId} AND tenant_id = ${s.tenantId}`);
      layouts.set(ref.sheetId, row?.layout ?? null);
    }
    const layout = layouts.get(ref.sheetId);
    if (!layout) continue;
    const view = sheetView(layout, ref.pages);
    const page = view.pages.find((pg) => pg.h && pg.fileId && pg.regions.some((r) => r.no === ref.no));
    if (!page?.h || !page.fileId) continue;
    const [file] = await rows<{ hash: string; mime: string }>(app.db, sql`
      SELECT file_hash AS hash, mime FROM grading_files WHERE id = ${page.fileId} AND tenant_id = ${s.tenantId}`);
    if (!file || !file.mime.startsWith('image/')) continue;
    const rect = page.regions.find((r) => r.no === ref.no)!.rect;
    const h = page.h;
    const map = (x: number, y: number) => {
      const w = h[6] * x + h[7] * y + h[8];
      return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
    };
    const corners = [map(rect.x - 2, rect.y - 1), map(rect.x + rect.w + 2, rect.y - 1), map(rect.x - 2, rect.y + rect.h + 1), map(rect.x + rect.w + 2, rect.y + rect.h + 1)];
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await app.files.open(file.hash)) chunks.push(chunk as Buffer);
      // sharp loads with the first crop, not with the server (its native library is tens of MB).
      const { default: sharp } = await import('sharp');
      const image = sharp(Buffer.concat(chunks)).rotate();
      const meta = await image.metadata();
      const left = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0]))));
      const top = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1]))));
      const right = Math.min(meta.width ?? 0, Math.ceil(Math.max(...corners.map((c) => c[0]))));
      const bottom = Math.min(meta.height ?? 0, Math.ceil(Math.max(...corners.map((c) => c[1]))));
      if (right - left < 8 || bottom - top < 8) continue;
      const png = await image.extract({ left, top, width: right - left, height: bottom - top }).resize({ width: 1000, withoutEnlargement: true }).png().toBuffer();
      crops.set(`${ref.studentId}:${ref.questionId}`, new Uint8Array(png));
    } catch {
      // An unreadable scan prints re-typeset, as a question without a scan does.
    }
  }
  return crops;
}

/** The tallest 解答 box of a 错题卷 sheet, in mm. */
const VOLUME_SHORT_MM = 32;

/** The sheet sections of some of the paper's items, as paper printing lays them out. */
function sheetSections(layOut: typeof paperSheetSpec, pl: Plan, items: Numbered[], keyItems: Record<string, KeyItem>): SectionSpec[] {
  const paper: PrintPaper = { id: 0, title: pl.title, durationMinutes: 0, totalPoints: 0, sections: [] };
  const typeTitle: Record<number, string> = { 1: '选择题', 2: '选择题', 3: '判断题', 4: '填空题', 7: '作文' };
  for (const it of items) {
    const title = typeTitle[it.q.type] ?? '解答题';
    const last = paper.sections[paper.sections.length - 1];
    const question = { no: it.no, points: it.q.points, question: { type: it.q.type, stem: it.q.stem, options: it.q.options } };
    if (last?.title === title) last.questions.push(question);
    else paper.sections.push({ title, questions: [question] });
  }
  const { sections } = layOut(paper, 'A4', '');
  for (const section of sections) {
    // Re-practice answers are short: "a few lines" boxes, two to a row, so a student's sheet and
    // questions share a page (a 6-point question gets 32 mm).
    if (section.kind === 'short') for (const item of section.items) item.heightMm = Math.min(item.heightMm, VOLUME_SHORT_MM);
    // A fill-in gets as many boxes as its key has blanks, so each blank is read where it is scored.
    if (section.kind !== 'fill') continue;
    for (const fill of section.items) {
      const key = keyItems[String(fill.no)];
      if (key && 'blanks' in key) fill.blanks = key.blanks.length;
    }
  }
  return sections;
}

/**
 * The stored answer sheet of the paper (same content, same id) and its key, as fromExam keeps one.
 * A personalised paper's sheet gives each student pages with only their own questions.
 */
async function sheetOf(db: Db, pl: Plan, sections: { student: Student | null; items: Numbered[] }[]) {
  const students = pl.mode === 'class' ? pl.roster : sections.map((sec) => sec.student!);
  const items: Record<string, KeyItem> = {};
  const manual: number[] = [];
  for (const it of pl.items) {
    const key = keyOf(it.q, it.q.points);
    if (key) items[String(it.no)] = key;
    else manual.push(it.no);
  }
  const personal = pl.mode === 'personal';
  const version = createHash('sha256')
    .update(JSON.stringify([
      pl.scope.teacherId,
      pl.scope.classId,
      pl.items.map((i) => [i.no, i.q.id, i.q.points]),
      students.map((s) => [s.id, s.name, s.studentNo]),
      personal ? sections.map((sec) => sec.items.map((i) => i.no)) : 'class',
    ]))
    .digest('hex')
    .slice(0, 10)
    .toUpperCase();
  const sheetId = `V${pl.scope.classId}${version}`;
  const { paperSheetSpec } = await import('../minerva/paperPdf');
  const spec: SheetSpec = {
    sheetId,
    title: `${pl.title} 答题卡`.slice(0, 50),
    paper: 'A4',
    identity: { mode: 'roster', students: students.map((s) => ({ id: rosterKey(s.id), name: s.name, className: pl.scope.className, studentNo: s.studentNo })) },
    sections: personal ? [] : sheetSections(paperSheetSpec, pl, pl.items, items),
  };
  const [stored] = await rows<{ layout: SheetLayout }>(db, sql`SELECT layout FROM answer_sheets WHERE id = ${sheetId} AND tenant_id = ${pl.scope.tenantId} AND teacher_id = ${pl.scope.teacherId}`);
  const { buildLayout, buildPersonalLayout, studentPages } = await import('../../grading/layout/build.js');
  let layout = stored?.layout;
  if (!layout) {
    try {
      layout = personal
        ? buildPersonalLayout(spec, sections.map((sec) => ({ studentId: rosterKey(sec.student!.id), sections: sheetSections(paperSheetSpec, pl, sec.items, items) })))
        : buildLayout(spec);
    } catch (error) {
      throw new ApiError(422, `答题卡无法生成：${(error as Error).message}`);
    }
    await db.insert(answerSheets).values({ id: sheetId, tenantId: pl.scope.tenantId, teacherId: pl.scope.teacherId, classId: pl.scope.classId, title: spec.title, layout }).onConflictDoNothing();
  }
  // Pages one student hands in (a personalised sheet's students have different counts: the most).
  const pages = Math.max(...students.map((s) => studentPages(layout, rosterKey(s.id)).length));
  return { sheetId, title: spec.title, layout, pages, students, answerKey: { items }, manual };
}

/** A week to hand the re-practice in: the custom homework needs a due date. */
const DUE_DAYS = 7;

/**
 * The custom homework (自定义作业) the re-practice is recorded under: the paper's items, numbered
 * as on its sheet, variants included; on a personalised paper each item names the students given
 * it, so a blank item on another student's copy is not recorded as wrong. The same paper of the
 * same term reuses its homework, so grading it again overwrites the same records.
 */
async function homeworkOf(db: Db, pl: Plan, sections: { student: Student | null; items: Numbered[] }[]): Promise<{ id: number; title: string; reused: boolean }> {
  const s = pl.scope;
  const items: WorkItem[] = pl.items.map((it) => {
    const studentIds = pl.mode === 'personal' ? sections.filter((sec) => sec.items.includes(it)).map((sec) => sec.student!.id).sort((a, b) => a - b) : undefined;
    return { questionId: it.q.id, points: it.q.points, no: String(it.no), ...(studentIds ? { studentIds } : {}) };
  });
  const now = new Date();
  const term = currentSemester(now);
  const [existing] = await rows<{ id: number; title: string }>(db, sql`
    SELECT id, title FROM homeworks
     WHERE tenant_id = ${s.tenantId} AND teacher_id = ${s.teacherId} AND class_id = ${s.classId} AND course_id = ${s.courseId}
       AND source_type = ${SourceType.customHomework} AND term = ${term} AND items = ${JSON.stringify(items)}::jsonb
     ORDER BY id DESC LIMIT 1`);
  if (existing) return { ...existing, reused: true };
  const [cls] = await rows<{ schoolId: number }>(db, sql`SELECT school_id AS "schoolId" FROM classes WHERE id = ${s.classId}`);
  const day = dateOnly(now, await schoolZone(db, cls?.schoolId));
  const title = `错题卷·${day}`;
  const [row] = await db
    .insert(homeworks)
    .values({ tenantId: s.tenantId, teacherId: s.teacherId, classId: s.classId, courseId: s.courseId, title, assignedAt: now, dueAt: new Date(now.getTime() + DUE_DAYS * 86400000), sourceType: SourceType.customHomework, items, term })
    .returning({ id: homeworks.id });
  await db.execute(sql`UPDATE homeworks SET batch_id = id WHERE id = ${row.id}`);
  return { id: row.id, title, reused: false };
}

const TYPE_NAMES: Record<number, string> = { 1: '单选题', 2: '多选题', 3: '判断题', 4: '填空题', 5: '解答题', 6: '综合题', 7: '作文' };
/** A stem shortened for lists, never cut inside a $…$ formula. */
function brief(stem: string): string {
  const flat = stem.replace(/\s+/g, ' ');
  if (flat.length <= 80) return flat;
  let cut = flat.slice(0, 80);
  if ((cut.match(/\$/g) ?? []).length % 2) cut = cut.slice(0, cut.lastIndexOf('$'));
  return `${cut}…`;
}

const volumePaperRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  // The class's most-missed questions of the course this term: the first page of the class
  // wrong-answer book (same rollup read, same order), to choose from.
  app.get(`${BASE}/candidates`, { preHandler: teachers, schema: { querystring: Query } }, async (request) => {
    const { classId, courseId } = request.query;
    const s = await scopeOf(db, request.principal, classId, courseId);
    const book = await classMistakes(db, s.tenantId, { classId, courseId, size: CANDIDATES });
    return ok({
      className: s.className,
      courseName: s.courseName,
      list: book.records.map(({ question: q, answered, wrong }) => {
        const type = q.type as number;
        return { id: q.id as number, type, typeName: TYPE_NAMES[type] ?? '题目', stem: brief(q.stem as string), difficulty: q.difficulty as number, answered, wrong };
      }),
    });
  });

  // What the paper will hold: questions with their similar ones, scans found, each student's share.
  app.post(`${BASE}/preview`, { preHandler: teachers, schema: { body: Body } }, async (request) => {
    const body = request.body;
    const pl = await plan(db, request.principal, body);
    const sections = sectionsOf(pl);
    const scans = body.mode === 'personal' ? await scanRefs(db, pl.scope, body.questionIds) : [];
    const scanCount = new Map<number, number>();
    for (const r of scans) scanCount.set(r.questionId, (scanCount.get(r.questionId) ?? 0) + 1);
    return ok({
      title: pl.title,
      mode: pl.mode,
      className: pl.scope.className,
      questions: pl.items
        .filter((it) => !it.variant)
        .map((it) => {
          const rate = pl.errorRate.get(it.q.id);
          return {
            id: it.q.id,
            no: it.no,
            type: it.q.type,
            typeName: TYPE_NAMES[it.q.type] ?? '题目',
            stem: brief(it.q.stem),
            difficulty: it.q.difficulty,
            answered: rate?.answered ?? 0,
            wrong: rate?.wrong ?? 0,
            scanStudents: scanCount.get(it.q.id) ?? 0,
            students: pl.mode === 'personal' ? sections.filter((sec) => sec.items.some((i) => i.q.id === it.q.id)).length : null,
            similar: pl.items.filter((v) => v.variant && v.of === it.q.id).map((v) => ({ id: v.q.id, no: v.no, stem: brief(v.q.stem), difficulty: v.q.difficulty, knowledgePointIds: v.q.knowledgePointIds, type: v.q.type })),
            knowledgePointIds: it.q.knowledgePointIds,
          };
        }),
      itemCount: pl.items.length,
      students: sections.filter((sec) => sec.student).map((sec) => ({ id: sec.student!.id, name: sec.student!.name, studentNo: sec.student!.studentNo, count: sec.items.length })),
      studentsWithout: pl.mode === 'personal' ? pl.roster.length - sections.length : 0,
    });
  });

  // The PDF: per section the questions, then the section's named answer sheet; the sheet is stored for AI批改.
  app.post(`${BASE}/pdf`, { preHandler: teachers, schema: { body: Body } }, async (request, reply) => {
    const body = request.body;
    const pl = await plan(db, request.principal, body);
    const sections = sectionsOf(pl);
    if (!sections.length) throw badRequest('所选题目中没有学生做错的题，无需生成个性化错题卷');
    const sheet = await sheetOf(db, pl, sections);
    const crops = pl.scanIds.size ? await cropScans(app, pl.scope, await scanRefs(db, pl.scope, [...pl.scanIds])) : new Map<string, Uint8Array>();
    const toItem = (it: Numbered, student: Student | null): VolumeItem => {
      const scan = student && !it.variant && pl.scanIds.has(it.q.id) ? crops.get(`${student.id}:${it.q.id}`) : undefined;
      return {
        no: it.no,
        points: it.q.points,
        variant: it.variant,
        question: { type: it.q.type, stem: it.q.stem, options: it.q.options, children: it.q.type === QuestionType.composite ? it.q.children : [] },
        ...(scan ? { scan } : {}),
      };
    };
    const familyUrls = new Map<number, string>();
    if (body.familyQr && pl.mode === 'personal') {
      const students = sections.flatMap((sec) => (sec.student ? [sec.student] : []));
      const issued = await issueFamilyLinks(db, request, {
        tenantId: pl.scope.tenantId,
        schoolId: request.principal.schoolId!,
        courseId: pl.scope.courseId,
        courseName: pl.scope.courseName,
        label: '错题卷二维码',
        days: FAMILY_LIMITS.defaultDays,
        students,
      });
      // The address the teacher reached the product at: the one families can reach too.
      for (const link of issued) familyUrls.set(link.studentId, `${request.protocol}://${request.host}${familyPath(link.token)}`);
    }
    const doc: VolumeDoc = {
      title: pl.title,
      className: pl.scope.className,
      layout: sheet.layout,
      sections: sections.map((sec) => ({
        student: sec.student
          ? { name: sec.student.name, studentNo: sec.student.studentNo, rosterId: rosterKey(sec.student.id), ...(familyUrls.has(sec.student.id) ? { familyUrl: familyUrls.get(sec.student.id) } : {}) }
          : null,
        items: sec.items.map((it) => toItem(it, sec.student)),
      })),
      // The class paper's sheet: a named copy for every student after the questions.
      rosterIds: pl.mode === 'class' ? pl.roster.map((s) => rosterKey(s.id)) : [],
    };
    const pdf = await runHeavy('requests', 'renderVolumePaper', doc);
    reply.header('X-Sheet-Id', sheet.sheetId);
    return fileReply(reply, 'application/pdf', 'attachment', `${pl.title}.pdf`).send(Buffer.from(pdf));
  });

  // The stored answer sheet and its key, for creating the AI批改 task that grades the re-practice.
  app.post(`${BASE}/sheet`, { preHandler: teachers, schema: { body: Body } }, async (request) => {
    const body = request.body;
    const pl = await plan(db, request.principal, body);
    const sections = sectionsOf(pl);
    if (!sections.length) throw badRequest('所选题目中没有学生做错的题，无需生成个性化错题卷');
    const sheet = await sheetOf(db, pl, sections);
    return ok({ sheetId: sheet.sheetId, title: sheet.title, pages: sheet.pages, copies: sheet.students.length, answerKey: sheet.answerKey, manual: sheet.manual, questionCount: pl.items.length }, '答题卡已生成');
  });

  // Closes the loop: the custom homework the AI批改 task of this paper links to (homeworkId on
  // POST /correct/task/create), so grading writes answer records and the wrong-answer books move.
  app.post(`${BASE}/homework`, { preHandler: teachers, schema: { body: Body } }, async (request) => {
    const body = request.body;
    const pl = await plan(db, request.principal, body);
    const sections = sectionsOf(pl);
    if (!sections.length) throw badRequest('所选题目中没有学生做错的题，无需生成个性化错题卷');
    const sheet = await sheetOf(db, pl, sections);
    const homework = await homeworkOf(db, pl, sections);
    return ok({ homeworkId: homework.id, homeworkTitle: homework.title, reused: homework.reused, sheetId: sheet.sheetId, title: sheet.title, answerKey: sheet.answerKey, questionCount: pl.items.length }, homework.reused ? '已关联原有错题卷作业' : '已生成错题卷作业');
  });
};
export default volumePaperRoutes;

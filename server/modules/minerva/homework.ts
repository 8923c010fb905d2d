// Homework for teachers (mini-program and classic): the list with completion and accuracy, assigning
// book pages, sections or a custom list of questions to one or more classes, and the detail per
// student and per question. Figures come from the answer-record rollups.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HOMEWORK_KEY_LIMITS, HOMEWORK_NOTE_MAX, keyItemQuestionType, normalizeKeyAnswer, SourceType, type HomeworkKeyItem } from '../../../src/domain/content';
import { exportFileName } from '../../../src/domain/format';
import { rangeStart } from '../../../src/domain/semester';
import { isoTime, rows } from '../../db/query';
import { homeworks, questions, type WorkItem } from '../../db/schema';
import { sendWorkbook } from '../../http/download';
import { callerZone, schoolZone } from '../../http/schoolZone';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { page, PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { checkCourse, findClass, type ClassRow } from '../vesta/access';
import { findBook, me, teachersOnly, teaches, visibleContent } from './access';
import { homeworkWorkbook, missingWorkbook } from './homeworkExport';
import { chinaDayStart, fileStamp } from '../../../src/domain/format';
import type { Db } from '../../db';
import { schoolCurrentTerm, schoolRangeStart } from '../vesta/schoolTerm';
import { unusedHomeworkFile } from './homeworkFiles';
import { FIGURES, FIGURES_JOIN, HOMEWORK_COLUMNS, HOMEWORK_FROM, homeworkDetail, missingList } from './homeworkQueries';

const IdList = (max: number) => Type.Array(Id, { minItems: 1, maxItems: max });

const Note = Type.String({ maxLength: HOMEWORK_NOTE_MAX });
/** `note` names another field elsewhere (a psychology record); here it is the note to the students. */
const HOMEWORK_LABELS = { fieldLabels: { note: '给学生的留言' } };
const Time = Type.String({ minLength: 1, maxLength: 40 });

/** One item of a photo/PDF homework's own answer key (src/domain/content.ts HomeworkKeyItem). */
const KeyItem = Type.Object(
  {
    no: Type.String({ minLength: 1, maxLength: 10, pattern: HOMEWORK_KEY_LIMITS.noPattern }),
    kind: Type.Union([Type.Literal('choice'), Type.Literal('judge'), Type.Literal('blank'), Type.Literal('answer')]),
    answer: Type.Optional(Type.String({ maxLength: HOMEWORK_KEY_LIMITS.answerMax })),
    points: Type.Number({ minimum: 0.5, maximum: HOMEWORK_KEY_LIMITS.pointsMax, multipleOf: 0.5 }),
  },
  { additionalProperties: false },
);

const KIND_LABELS: Record<HomeworkKeyItem['kind'], string> = { choice: '选择题', judge: '判断题', blank: '填空题', answer: '解答题' };

/** The key as stored: answers normalised (letters sorted, 对/错), each item checked, numbers distinct. */
function checkedKey(key: HomeworkKeyItem[]): HomeworkKeyItem[] {
  const seen = new Set<string>();
  return key.map((item) => {
    if (seen.has(item.no)) throw badRequest(`第 ${item.no} 题重复了`);
    seen.add(item.no);
    if (item.kind === 'answer') return { no: item.no, kind: item.kind, points: item.points };
    const answer = normalizeKeyAnswer(item.kind, item.answer ?? '');
    if (!answer) {
      throw badRequest(
        item.kind === 'choice' ? `第 ${item.no} 题请填写正确选项（A–G）` : item.kind === 'judge' ? `第 ${item.no} 题请填写“对”或“错”` : `第 ${item.no} 题请填写正确答案`,
      );
    }
    return { no: item.no, kind: item.kind, answer, points: item.points };
  });
}

/** A time the client sent (ISO 8601), or a Chinese 400 naming the field. */
function timeOf(value: string, label: string): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw badRequest(`${label}格式不正确`);
  return at;
}

/** A note as stored: trimmed, and nothing when blank. */
const noteOf = (note: string | undefined) => (note === undefined ? undefined : note.trim() || null);

/** SPEC §9 homework date range (today, within a week, all) and §3 time range (week 1, month 2, term 0). */
async function since(db: Db, schoolId: number | null, q: { dateRange?: string; dateType?: number }): Promise<Date | undefined> {
  if (q.dateRange === 'today') return chinaDayStart(new Date(), await schoolZone(db, schoolId));
  if (q.dateRange === 'week') return rangeStart(1);
  // 本学期 follows the school's current term (学年/学期 settings).
  if (q.dateType !== undefined) return schoolRangeStart(db, schoolId, q.dateType);
  return undefined;
}

const homeworkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/minerva/v1.0/homeworks',
    {
      preHandler: teachersOnly,
      schema: {
        querystring: Type.Object({
          ...PagingQuery,
          classId: Type.Optional(Id),
          gradeId: Type.Optional(Id),
          courseId: Type.Optional(Id),
          dateRange: Type.Optional(Type.Union([Type.Literal('today'), Type.Literal('week'), Type.Literal('all')])),
          dateType: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)])),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const p = request.principal;
      const { tenantId, teacherId } = await me(db, p);
      if (q.classId) await findClass(db, p, q.classId);
      const { current, size, offset } = pageWindow(q);
      const from = await since(db, p.schoolId, q);
      const where = sql`h.tenant_id = ${tenantId} AND h.teacher_id = ${teacherId}
        ${q.classId ? sql`AND h.class_id = ${q.classId}` : sql``}
        ${q.gradeId ? sql`AND c.grade_id = ${q.gradeId}` : sql``}
        ${q.courseId ? sql`AND h.course_id = ${q.courseId}` : sql``}
        ${from ? sql`AND h.assigned_at >= ${from.toISOString()}` : sql``}`;
      const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM homeworks h JOIN classes c ON c.id = h.class_id WHERE ${where}`);
      const records = await rows(db, sql`
        SELECT ${HOMEWORK_COLUMNS}, ${FIGURES} FROM ${HOMEWORK_FROM} ${FIGURES_JOIN}
         WHERE ${where} ORDER BY h.assigned_at DESC, h.id DESC LIMIT ${size} OFFSET ${offset}`);
      return ok(page(records, total, current, size));
    },
  );

  app.post(
    '/api/minerva/v1.0/homeworks',
    {
      preHandler: teachersOnly,
      schema: {
        body: Type.Object(
          {
            title: Type.Optional(Type.String({ maxLength: 100 })),
            courseId: Id,
            classIds: IdList(20),
            dueAt: Time,
            startAt: Type.Optional(Time),
            bookId: Type.Optional(Id),
            pageIds: Type.Optional(IdList(100)),
            sectionIds: Type.Optional(IdList(50)),
            questionIds: Type.Optional(IdList(100)),
            /** A photo or PDF of the assignment (uploaded first) with its answer key. */
            fileId: Type.Optional(Id),
            key: Type.Optional(Type.Array(KeyItem, { minItems: 1, maxItems: HOMEWORK_KEY_LIMITS.items })),
            confirmDuplicate: Type.Optional(Type.Boolean()),
            note: Type.Optional(Note),
          },
          { additionalProperties: false },
        ),
      },
      config: HOMEWORK_LABELS,
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const { tenantId, teacherId } = await me(db, p);
      const dueAt = timeOf(body.dueAt, '截止时间');
      if (dueAt.getTime() <= Date.now()) throw badRequest('截止时间必须晚于现在');
      // Scheduled publishing: students see it from then on; a time already past publishes it now.
      const startAt = body.startAt === undefined ? null : timeOf(body.startAt, '发布时间');
      if (startAt && startAt.getTime() >= dueAt.getTime()) throw badRequest('发布时间必须早于截止时间');
      const course = await checkCourse(db, p, body.courseId);
      const [{ subjectId }] = await rows<{ subjectId: number }>(db, sql`SELECT subject_id AS "subjectId" FROM courses WHERE id = ${course.id}`);
      const classIds = [...new Set(body.classIds)];
      const targets: ClassRow[] = [];
      for (const classId of classIds) {
        const target = await findClass(db, p, classId);
        if (!(await teaches(db, teacherId, target.id, course.id))) throw notFound('班级不存在');
        targets.push(target);
      }
      const [{ level }] = await rows<{ level: number }>(db, sql`SELECT level FROM grades WHERE id = ${targets[0].gradeId}`);
      if (targets.some((t) => t.gradeId !== targets[0].gradeId)) throw badRequest('一次只能布置给同一年级的班级');

      const fromBook = body.bookId !== undefined;
      const fromFile = body.fileId !== undefined;
      if ([fromBook, body.questionIds !== undefined, fromFile].filter(Boolean).length !== 1) throw badRequest('请选择练习册页面、题目或上传作业原件（三选一）');
      if (fromFile !== (body.key !== undefined)) throw badRequest(fromFile ? '请填写答案' : '答案只能随作业原件填写');
      let items: WorkItem[];
      let key: HomeworkKeyItem[] = [];
      let title = body.title?.trim();
      let bookId: number | null = null;
      let selection: { pageIds?: number[]; sectionIds?: number[] } | null = null;
      if (fromBook) {
        const book = await findBook(db, p, body.bookId!);
        if (book.subjectId !== subjectId) throw badRequest('练习册与课程学科不符');
        if (book.gradeLevel !== level) throw badRequest('练习册与班级年级不符');
        if (!body.pageIds === !body.sectionIds) throw badRequest('请选择页面或章节（二选一）');
        const pageIds = body.pageIds
          ? [...new Set(body.pageIds)]
          : (await rows<{ id: number }>(db, sql`SELECT bp.id FROM book_pages bp JOIN book_sections bs ON bs.id = bp.section_id
               WHERE bp.book_id = ${book.id} AND bs.id = ANY(${`{${[...new Set(body.sectionIds!)].join(',')}}`}::int[])`)).map((r) => r.id);
        const pages = await rows<{ id: number; pageNo: number; sectionId: number }>(db, sql`
          SELECT id, page_no AS "pageNo", section_id AS "sectionId" FROM book_pages WHERE book_id = ${book.id} AND id = ANY(${`{${pageIds.join(',') || 0}}`}::int[]) ORDER BY page_no`);
        const wantedSections = body.sectionIds ? new Set(body.sectionIds) : undefined;
        if ((body.pageIds && pages.length !== pageIds.length) || (wantedSections && new Set(pages.map((pg) => pg.sectionId)).size !== wantedSections.size)) {
          throw notFound('练习册页面不存在');
        }
        const placed = await rows<{ questionId: number; points: number }>(db, sql`
          SELECT pq.question_id AS "questionId", q.points FROM book_page_questions pq JOIN book_pages bp ON bp.id = pq.page_id JOIN questions q ON q.id = pq.question_id
           WHERE bp.id = ANY(${`{${pages.map((pg) => pg.id).join(',')}}`}::int[]) ORDER BY bp.page_no, pq.sort_order`);
        if (!placed.length) throw badRequest('所选页面没有题目');
        items = placed.map((q, k) => ({ questionId: q.questionId, points: q.points, no: String(k + 1) }));
        title ||= `${book.title} 第${pages[0].pageNo}${pages.length > 1 ? `–${pages[pages.length - 1].pageNo}` : ''}页`;
        bookId = book.id;
        selection = body.pageIds ? { pageIds } : { sectionIds: [...wantedSections!] };
      } else if (fromFile) {
        await unusedHomeworkFile(db, tenantId, teacherId, body.fileId!);
        key = checkedKey(body.key!);
        if (!title) throw badRequest('请填写作业标题');
        // Items get their question rows in the transaction below, once the batch has an id.
        items = [];
      } else {
        const ids = [...new Set(body.questionIds!)];
        const found = await rows<{ id: number; points: number }>(db, sql`
          SELECT q.id, q.points FROM questions q
           WHERE q.id = ANY(${`{${ids.join(',')}}`}::int[]) AND q.parent_id IS NULL AND q.homework_batch_id IS NULL AND q.subject_id = ${subjectId} AND ${visibleContent(p, 'q')}`);
        if (found.length !== ids.length) throw notFound('题目不存在');
        items = ids.map((id, k) => ({ questionId: id, points: found.find((f) => f.id === id)!.points, no: String(k + 1) }));
        title ||= '自定义作业';
      }
      if ([...title].length > 100) throw badRequest('标题长度不能超过100个字符');
      // The same book pages given to a class again would be done and counted twice: the teacher
      // confirms first. Custom lists are exempt (a review deliberately repeats questions).
      if (fromBook && !body.confirmDuplicate) {
        const [twice] = await rows<{ className: string; title: string }>(db, sql`
          SELECT c.name AS "className", h.title FROM homeworks h JOIN classes c ON c.id = h.class_id
           WHERE h.tenant_id = ${tenantId} AND h.course_id = ${course.id} AND h.source_type = ${SourceType.bookHomework}
             AND h.class_id = ANY(${`{${classIds.join(',')}}`}::int[])
             AND EXISTS (SELECT 1 FROM jsonb_array_elements(h.items) it WHERE (it->>'questionId')::int = ANY(${`{${items.map((i) => i.questionId).join(',')}}`}::int[]))
           ORDER BY h.assigned_at DESC, h.id DESC LIMIT 1`);
        if (twice) throw conflict(`${twice.className}已布置过「${twice.title}」中的页面，仍要再布置一次吗？`);
      }

      const assignedAt = new Date();
      // Homework belongs to the school's current term (学年/学期 settings), the reports' default.
      const { term } = await schoolCurrentTerm(db, p.schoolId, assignedAt);
      const created = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(homeworks)
          .values(
            targets.map((target) => ({
              tenantId,
              teacherId,
              classId: target.id,
              courseId: course.id,
              title: title!,
              assignedAt,
              dueAt,
              sourceType: fromBook ? SourceType.bookHomework : SourceType.customHomework,
              bookId,
              selection,
              items,
              term,
              note: noteOf(body.note) ?? null,
              fileId: body.fileId ?? null,
              startAt: startAt && startAt.getTime() > assignedAt.getTime() ? startAt : null,
            })),
          )
          .returning({ id: homeworks.id, classId: homeworks.classId });
        const batchId = inserted[0].id;
        const batch = `{${inserted.map((r) => r.id).join(',')}}`;
        await tx.execute(sql`UPDATE homeworks SET batch_id = ${batchId} WHERE id = ANY(${batch}::int[])`);
        // A photo/PDF homework's answer key becomes question rows of its own (not the bank's), so
        // its answers are recorded, counted and reviewed as any homework's.
        if (fromFile) {
          const made = await tx
            .insert(questions)
            .values(
              key.map((item) => ({
                tenantId,
                subjectId,
                gradeLevel: level,
                type: keyItemQuestionType(item),
                stem: `${title} 第 ${item.no} 题（${KIND_LABELS[item.kind]}，见作业原件）`,
                answer: item.answer ?? '',
                difficulty: 3,
                points: item.points,
                source: '作业原件',
                homeworkBatchId: batchId,
                createdBy: p.userId,
              })),
            )
            .returning({ id: questions.id });
          items = key.map((item, k) => ({ questionId: made[k].id, points: item.points, no: item.no }));
          await tx.update(homeworks).set({ items }).where(sql`id = ANY(${batch}::int[])`);
        }
        return inserted;
      });
      return ok({ batchId: created[0].id, homeworks: created.map((r) => ({ id: r.id, classId: r.classId })), title, questionCount: items.length }, '布置成功');
    },
  );

  const HomeworkParams = { params: Type.Object({ homeworkId: Id }) };

  app.get('/api/minerva/v1.0/homeworks/:homeworkId', { preHandler: teachersOnly, schema: HomeworkParams }, async (request) => {
    const { homeworkId } = request.params;
    return ok(await homeworkDetail(db, request.principal, homeworkId));
  });

  /** The caller's own homework (another teacher's or tenant's is 404), locked for the change. */
  // `who` is read before the transaction: the embedded database has one connection, which the
  // transaction holds.
  async function ownHomework(tx: Parameters<Parameters<typeof db.transaction>[0]>[0], who: { tenantId: number; teacherId: number }, homeworkId: number) {
    const { tenantId, teacherId } = who;
    const [row] = await rows<{ id: number; sourceType: number; pendingReview: number; title: string; dueAt: string; startAt: string | null }>(tx, sql`
      SELECT id, source_type AS "sourceType", pending_review AS "pendingReview", title, ${isoTime(sql`due_at`)} AS "dueAt",
             CASE WHEN start_at > now() THEN ${isoTime(sql`start_at`)} END AS "startAt"
        FROM homeworks
       WHERE id = ${homeworkId} AND tenant_id = ${tenantId} AND teacher_id = ${teacherId} FOR UPDATE`);
    if (!row) throw notFound('作业不存在');
    // `startAt`: the publishing time while still ahead, else null (published).
    const found = { ...row, dueAt: new Date(row.dueAt), startAt: row.startAt === null ? null : new Date(row.startAt) };
    const [{ handedIn }] = await rows<{ handedIn: number }>(tx, sql`
      SELECT count(*)::int AS "handedIn" FROM answer_records WHERE tenant_id = ${tenantId} AND source_type = ${found.sourceType} AND source_id = ${found.id}`);
    return { ...found, tenantId, handedIn: handedIn + found.pendingReview };
  }

  // Change the title, the deadline (a new deadline must still be ahead), the note, or the publishing
  // time while it is still ahead.
  app.put(
    '/api/minerva/v1.0/homeworks/:homeworkId',
    {
      preHandler: teachersOnly,
      schema: {
        ...HomeworkParams,
        body: Type.Object(
          { title: Type.Optional(Type.String({ maxLength: 100 })), dueAt: Type.Optional(Time), startAt: Type.Optional(Time), note: Type.Optional(Note) },
          { additionalProperties: false },
        ),
      },
      config: HOMEWORK_LABELS,
    },
    async (request) => {
      const { title, dueAt } = request.body;
      // An empty note takes the note away.
      const note = noteOf(request.body.note);
      const name = title?.trim();
      if (title !== undefined && !name) throw badRequest('标题不能为空');
      const due = dueAt === undefined ? undefined : timeOf(dueAt, '截止时间');
      if (due && due.getTime() <= Date.now()) throw badRequest('截止时间必须晚于现在');
      const start = request.body.startAt === undefined ? undefined : timeOf(request.body.startAt, '发布时间');
      if (name === undefined && due === undefined && note === undefined && start === undefined) throw badRequest('请填写要修改的标题、截止时间、发布时间或留言');
      const who = await me(db, request.principal);
      await db.transaction(async (tx) => {
        const hw = await ownHomework(tx, who, request.params.homeworkId);
        const now = Date.now();
        // Once students can see it, it stays published (they may have started on it).
        if (start && hw.startAt === null) throw conflict('作业已发布，不能修改发布时间');
        // A time already past publishes it now.
        const startAt = start === undefined ? hw.startAt : start.getTime() <= now ? null : start;
        if (startAt && startAt.getTime() >= (due ?? hw.dueAt).getTime()) throw badRequest('发布时间必须早于截止时间');
        const newStart = start === undefined ? sql`start_at` : sql`${startAt?.toISOString() ?? null}::timestamptz`;
        await tx.execute(sql`UPDATE homeworks SET start_at = ${newStart}, title = coalesce(${name ?? null}, title), due_at = coalesce(${due?.toISOString() ?? null}::timestamptz, due_at),
          note = ${note === undefined ? sql`note` : note} WHERE id = ${hw.id}`);
      });
      return ok(await homeworkDetail(db, request.principal, request.params.homeworkId), '修改成功');
    },
  );

  // Withdraw: only while nobody has handed it in (afterwards the answers would lose their work).
  app.delete('/api/minerva/v1.0/homeworks/:homeworkId', { preHandler: teachersOnly, schema: HomeworkParams }, async (request) => {
    const who = await me(db, request.principal);
    await db.transaction(async (tx) => {
      const hw = await ownHomework(tx, who, request.params.homeworkId);
      if (hw.handedIn > 0) throw conflict('已有学生提交，不能撤回该作业');
      const [{ batchId }] = await rows<{ batchId: number | null }>(tx, sql`SELECT batch_id AS "batchId" FROM homeworks WHERE id = ${hw.id}`);
      await tx.execute(sql`DELETE FROM homeworks WHERE id = ${hw.id}`);
      // A photo/PDF homework's own answer key goes with the last class of its batch.
      if (batchId !== null) {
        await tx.execute(sql`DELETE FROM questions WHERE homework_batch_id = ${batchId} AND tenant_id = ${hw.tenantId}
          AND NOT EXISTS (SELECT 1 FROM homeworks WHERE batch_id = ${batchId} AND tenant_id = ${hw.tenantId})`);
      }
    });
    return ok(null, '已撤回');
  });

  // The same detail as a workbook (学生, 题目 sheets); only the homework's own teacher gets it.
  app.get('/api/minerva/v1.0/homeworks/:homeworkId/export', { preHandler: teachersOnly, schema: HomeworkParams }, async (request, reply) => {
    const { homeworkId } = request.params;
    const detail = await homeworkDetail(db, request.principal, homeworkId);
    const zone = await callerZone(db, request.principal);
    const bytes = await homeworkWorkbook(detail, zone);
    return sendWorkbook(reply, bytes, exportFileName(`作业详情_${detail.className}`, fileStamp(new Date(), zone), 'xlsx'));
  });

  // 未提交名单: who has not handed it in, to remind them (printed from 作业详情, or as a workbook).
  app.get('/api/minerva/v1.0/homeworks/:homeworkId/missing', { preHandler: teachersOnly, schema: HomeworkParams }, async (request) => {
    return ok(await missingList(db, request.principal, request.params.homeworkId));
  });

  app.get('/api/minerva/v1.0/homeworks/:homeworkId/missing/export', { preHandler: teachersOnly, schema: HomeworkParams }, async (request, reply) => {
    const list = await missingList(db, request.principal, request.params.homeworkId);
    const zone = await callerZone(db, request.principal);
    return sendWorkbook(reply, await missingWorkbook(list, zone), exportFileName(`未提交名单_${list.className}`, fileStamp(new Date(), zone), 'xlsx'));
  });
};

export default homeworkRoutes;

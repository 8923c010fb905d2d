// 反馈单 of an answer-sheet task (docs/api-correct.md "Feedback"): one A4 page per student, or the
// class in one PDF, built from the results as they stand (the teacher's points where given) — every
// question's points, each 解答题's crop of the scan with the marker's pen, the rubric items applied,
// and the teacher's comment. The crops are cut here (sharp), the PDF is drawn on a heavy-work thread.
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, gradingFiles } from '../../db/schema';
import type { FileStore } from '../../files/store';
import { badRequest, notFound } from '../../http/envelope';
import { fileReply } from '../../http/download';
import type { SheetLayout } from '../../grading';
import { TaskType } from '../../grading/statuses';
import type { Annotation } from '../../../src/domain/marking';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import { manualQuestions, sheetNos, withManualItems } from './marking';
import { regionOf } from './markingRoutes';
import type { GradedWork, PageTrace } from './results';
import { Id } from './schemas';
import { linkOf } from './workLink';
import type { FeedbackCrop, FeedbackDoc, FeedbackStudent } from './feedbackPdf';
import { GRID } from './feedbackGrid';
import { runFeedbackHeavy } from './threadTasks';
import { taskFamilyLinks } from './familyQr';
import { callerZone } from '../../http/schoolZone';
import { FAMILY_LIMITS } from '../../../src/domain/family';

/** A class at most; a bigger print is asked for in parts. */
export const MAX_FEEDBACK_PAGES = 200;
/** Crops are printed about 17 cm wide: 900 px is more than a printer shows. */
const CROP_WIDTH = 900;

const project = (h: number[], x: number, y: number) => {
  const w = h[6]! * x + h[7]! * y + (h[8] ?? 1);
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
};

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The region's crop of a scan: the bounding box of its corners on the image, with a grid for the pen. */
async function cropOf(image: Buffer, h: number[], rect: { x: number; y: number; w: number; h: number }, no: number, marks: Annotation[]): Promise<FeedbackCrop | null> {
  // sharp loads with the first crop, not with the server (its native library is tens of MB).
  const { default: sharp } = await import('sharp');
  const meta = await sharp(image).metadata();
  if (!meta.width || !meta.height) return null;
  const corners = [project(h, rect.x, rect.y), project(h, rect.x + rect.w, rect.y), project(h, rect.x, rect.y + rect.h), project(h, rect.x + rect.w, rect.y + rect.h)];
  const left = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.x))));
  const top = Math.max(0, Math.floor(Math.min(...corners.map((c) => c.y))));
  const right = Math.min(meta.width, Math.ceil(Math.max(...corners.map((c) => c.x))));
  const bottom = Math.min(meta.height, Math.ceil(Math.max(...corners.map((c) => c.y))));
  const width = right - left;
  const height = bottom - top;
  if (width < 8 || height < 8) return null;
  const jpeg = await sharp(image).rotate().extract({ left, top, width, height }).resize({ width: Math.min(CROP_WIDTH, width) }).jpeg({ quality: 72 }).toBuffer();
  const grid = Array.from({ length: GRID + 1 }, (_, j) =>
    Array.from({ length: GRID + 1 }, (_, i) => {
      const p = project(h, rect.x + (i / GRID) * rect.w, rect.y + (j / GRID) * rect.h);
      return { x: (p.x - left) / width, y: (p.y - top) / height };
    }),
  );
  const size = await sharp(jpeg).metadata();
  return { no, jpeg: new Uint8Array(jpeg), width: size.width ?? width, height: size.height ?? height, grid, marks };
}

export async function feedbackDoc(db: Db, files: FileStore, task: TaskRow, resultId?: number): Promise<FeedbackDoc> {
  if (task.type !== TaskType.answerSheet || task.sheetId === null) throw badRequest('只有答题卡批改任务可以打印反馈单');
  const [sheet] = await db.select({ layout: answerSheets.layout }).from(answerSheets).where(and(eq(answerSheets.id, task.sheetId), eq(answerSheets.tenantId, task.tenantId)));
  const layout = (sheet?.layout ?? null) as SheetLayout | null;
  const results = await rows<{
    id: number;
    studentName: string | null;
    studentNo: string | null;
    studentKey: string | null;
    className: string | null;
    result: GradedWork;
    review: Record<string, number> | null;
    score: number | null;
    maxScore: number | null;
  }>(db, sql`
    SELECT r.id, s.name AS "studentName", s.student_no AS "studentNo", r.student_key AS "studentKey",
           coalesce(tc.name, sc.name) AS "className", r.result, r.review, r.score, r.max_score AS "maxScore"
      FROM grading_results r
      LEFT JOIN students s ON s.id = r.student_id AND s.tenant_id = ${task.tenantId}
      LEFT JOIN classes sc ON sc.id = s.class_id
      LEFT JOIN classes tc ON tc.id = ${task.classId}
     WHERE r.task_id = ${task.id} ${resultId === undefined ? sql`` : sql`AND r.id = ${resultId}`}
     ORDER BY s.student_no NULLS LAST, r.id
     LIMIT ${MAX_FEEDBACK_PAGES + 1}`);
  if (resultId !== undefined && !results.length) throw notFound('批改结果不存在');
  if (!results.length) throw badRequest('该任务还没有批改结果，无法打印反馈单');
  if (results.length > MAX_FEEDBACK_PAGES) throw badRequest(`一次最多打印 ${MAX_FEEDBACK_PAGES} 名学生的反馈单，请逐名打印`);
  const nos = await sheetNos(db, task);
  const written = manualQuestions(task, nos).filter((q) => q.kind === 'short');
  const ids = `{${results.map((r) => r.id).join(',')}}`;
  const rubric = await rows<{ resultId: number; no: number; label: string; points: number }>(db, sql`
    SELECT m.result_id AS "resultId", i.no, i.label, i.points FROM grading_rubric_marks m JOIN grading_rubric_items i ON i.id = m.item_id
     WHERE i.task_id = ${task.id} AND m.result_id = ANY(${ids}::int[]) ORDER BY i.id`);
  const pens = await rows<{ resultId: number; no: number; marks: Annotation[] }>(db, sql`
    SELECT result_id AS "resultId", no, marks FROM grading_annotations WHERE result_id = ANY(${ids}::int[])`);
  const link = linkOf(task.answerKey);
  const students: FeedbackStudent[] = [];
  for (const r of results) {
    const work = withManualItems(r.result, task, nos);
    const pointsOf = (no: number) => r.review?.[String(no)] ?? work.items.find((i) => i.no === no)?.score ?? null;
    const maxOf = (no: number) => {
      const item = work.items.find((i) => i.no === no);
      return item?.max ?? link?.items[String(no)]?.points ?? written.find((q) => q.no === no)?.fullMarks ?? null;
    };
    const pages = ((work.detail ?? {}) as { pages?: PageTrace[] }).pages ?? [];
    // One scan read per student page at most, however many 解答题 it holds.
    const images = new Map<number, Promise<Buffer | null>>();
    const imageOf = (fileId: number) => {
      if (!images.has(fileId)) {
        images.set(
          fileId,
          (async () => {
            const [file] = await db.select({ hash: gradingFiles.fileHash, mime: gradingFiles.mime }).from(gradingFiles).where(and(eq(gradingFiles.id, fileId), eq(gradingFiles.taskId, task.id)));
            if (!file || !file.mime.startsWith('image/')) return null;
            return readAll(await files.open(file.hash));
          })(),
        );
      }
      return images.get(fileId)!;
    };
    const parts: FeedbackStudent['written'] = [];
    for (const q of written) {
      const region = layout ? regionOf(layout, q.no) : null;
      const trace = region ? pages.find((p) => p.page === region.page) : undefined;
      const marks = pens.find((p) => p.resultId === r.id && p.no === q.no)?.marks ?? [];
      let crop: FeedbackCrop | null = null;
      if (region && trace?.fileId && trace.h) {
        const image = await imageOf(trace.fileId);
        crop = image ? await cropOf(image, trace.h, region.rect, q.no, marks).catch(() => null) : null;
      }
      parts.push({ no: q.no, score: pointsOf(q.no), max: maxOf(q.no), crop, rubric: rubric.filter((m) => m.resultId === r.id && m.no === q.no).map((m) => ({ label: m.label, points: m.points })) });
    }
    students.push({
      resultId: r.id,
      name: r.studentName ?? (r.studentKey ? `未识别学生（${r.studentKey}）` : '未识别学生'),
      studentNo: r.studentNo,
      className: r.className,
      score: r.score,
      maxScore: r.maxScore,
      items: work.items.map((i) => ({ no: i.no, score: pointsOf(i.no), max: maxOf(i.no) })),
      written: parts,
      comment: work.teacherComment ?? null,
    });
  }
  return { title: task.title, printedOn: new Date().toISOString(), students };
}

const feedbackRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  // The class's 反馈单 (one page per student), or one student's with resultId.
  app.get(`${BASE}/task/feedback`, { preHandler: correctors, schema: { querystring: Type.Object({ taskId: Id, resultId: Type.Optional(Id) }) } }, async (request, reply) => {
    const { taskId, resultId } = request.query;
    const task = await findMyTask(db, request.principal, taskId);
    const doc = { ...(await feedbackDoc(db, app.files, task, resultId)), zone: await callerZone(db, request.principal) };
    const pdf = await runFeedbackHeavy('requests', 'renderFeedback', doc);
    const name = resultId === undefined ? `反馈单_${task.title}.pdf` : `${doc.students[0]!.name}_反馈单_${task.title}.pdf`;
    return fileReply(reply, 'application/pdf', 'attachment', name).header('access-control-expose-headers', 'content-disposition').send(Buffer.from(pdf));
  });
  // The same, with 附家长查看二维码: each student's page carries a fresh family link as a QR code
  // (issued now and written to 操作日志, so a POST).
  app.post(
    `${BASE}/task/feedback`,
    {
      preHandler: correctors,
      schema: {
        body: Type.Object(
          { taskId: Id, resultId: Type.Optional(Id), familyQr: Type.Boolean(), days: Type.Optional(Type.Integer({ minimum: 1, maximum: FAMILY_LIMITS.maxDays })) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { taskId, resultId, familyQr, days = FAMILY_LIMITS.defaultDays } = request.body;
      const task = await findMyTask(db, request.principal, taskId);
      const doc = { ...(await feedbackDoc(db, app.files, task, resultId)), zone: await callerZone(db, request.principal) };
      if (familyQr) {
        const links = await taskFamilyLinks(db, request, task, doc.students.map((s) => s.resultId), days);
        for (const s of doc.students) {
          const link = links.find((l) => l.resultId === s.resultId);
          if (link) Object.assign(s, { familyUrl: link.url, familyDays: link.days });
        }
      }
      const pdf = await runFeedbackHeavy('requests', 'renderFeedback', doc);
      const name = resultId === undefined ? `反馈单_${task.title}.pdf` : `${doc.students[0]!.name}_反馈单_${task.title}.pdf`;
      return fileReply(reply, 'application/pdf', 'attachment', name).header('access-control-expose-headers', 'content-disposition').send(Buffer.from(pdf));
    },
  );
};

export default feedbackRoutes;

// 讲评 sample answers: the task's owner picks, per question, a few graded papers whose crop of that
// question the projector shows as 样例A, 样例B… Only the task's owner reads or picks (another
// teacher's or tenant's task is 404); no reply carries a student's name or number, only the crop
// of the one question and the points it got.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, lectureSamples } from '../../db/schema';
import type { SheetLayout } from '../../grading';
import { badRequest, ok } from '../../http/envelope';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { LectureSamplesSchema, SampleCandidatesSchema, SaveSamplesBody, sampleLabel, type LectureSample, type SamplePaper } from '../../../src/domain/lecture';
import { BASE, correctors, findMyTask, type TaskRow } from './access';
import type { GradedWork, PageTrace } from './results';
import { linkOf } from './workLink';
import { photoView, sheetView, type ResultView } from './view';

const TaskId = Type.Integer({ minimum: 1, maximum: 2147483647 });
const No = Type.Integer({ minimum: 1, maximum: 200 });

interface ResultRow {
  id: number;
  result: GradedWork;
  review: Record<string, number> | null;
}

/** Each result's view (as GET /result/detail draws it), with the task's sheet layout read once. */
async function viewer(db: Db, task: TaskRow): Promise<(work: GradedWork) => ResultView> {
  const [sheet] = task.sheetId
    ? await db.select({ layout: answerSheets.layout }).from(answerSheets).where(and(eq(answerSheets.id, task.sheetId), eq(answerSheets.tenantId, task.tenantId)))
    : [];
  return (work) => {
    const detail = (work.detail ?? {}) as { pages?: PageTrace[]; fileId?: number; regions?: Parameters<typeof photoView>[1] };
    if (work.kind === 'sheet') return sheet && detail.pages ? sheetView(sheet.layout as SheetLayout, detail.pages) : { pages: [] };
    const fileId = work.fileId ?? detail.fileId;
    return fileId ? photoView(fileId, detail.regions ?? []) : { pages: [] };
  };
}

/** One paper's answer to question `no` with the crop's page narrowed to that question; null without a crop. */
function paperOf(row: ResultRow, no: number, view: (work: GradedWork) => ResultView, task: TaskRow): SamplePaper | null {
  const item = row.result?.items?.find((i) => i.no === no);
  if (!item) return null;
  const page = view(row.result).pages.find((p) => p.fileId !== null && p.regions.some((r) => r.no === no));
  if (!page) return null;
  const max = item.max ?? linkOf(task.answerKey)?.items[String(no)]?.points ?? null;
  const reviewed = row.review?.[String(no)];
  return {
    resultId: row.id,
    no,
    score: reviewed ?? item.score,
    max,
    given: item.given ?? '',
    needsReview: reviewed === undefined && item.needsReview,
    page: {
      ...page,
      regions: page.regions.filter((r) => r.no === no),
      bubbles: page.bubbles.filter((b) => b.no === no),
      fills: page.fills.filter((f) => f.no === no),
    },
  };
}

const resultsOf = (db: Db, task: TaskRow, ids?: number[]) =>
  rows<ResultRow>(db, sql`
    SELECT r.id, r.result, r.review FROM grading_results r
     WHERE r.task_id = ${task.id} AND r.tenant_id = ${task.tenantId}
       ${ids ? sql`AND r.id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql``}
     ORDER BY r.id`);

/** The task's chosen samples, every question, in the order shown. */
async function samplesOf(db: Db, task: TaskRow, no?: number): Promise<LectureSample[]> {
  const picked = await rows<{ no: number; resultId: number; position: number }>(db, sql`
    SELECT no, result_id AS "resultId", position FROM lecture_samples
     WHERE task_id = ${task.id} AND tenant_id = ${task.tenantId} ${no === undefined ? sql`` : sql`AND no = ${no}`}
     ORDER BY no, position`);
  if (!picked.length) return [];
  const results = new Map((await resultsOf(db, task, [...new Set(picked.map((p) => p.resultId))])).map((r) => [r.id, r]));
  const view = await viewer(db, task);
  const out: LectureSample[] = [];
  for (const p of picked) {
    const row = results.get(p.resultId);
    const paper = row && paperOf(row, p.no, view, task);
    // A paper regraded without a crop any more drops out; the labels stay in order.
    if (paper) out.push({ ...paper, position: p.position, label: sampleLabel(out.filter((s) => s.no === p.no).length) });
  }
  return out;
}

const lectureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    `${BASE}/lecture/samples`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: TaskId }), response: { 200: EnvelopeSchema(LectureSamplesSchema) } } },
    async (request) => {
      const task = await findMyTask(db, request.principal, request.query.taskId);
      return ok({ samples: await samplesOf(db, task) });
    },
  );

  // What the teacher picks from: every paper with a crop of the question, most points first.
  app.get(
    `${BASE}/lecture/candidates`,
    { preHandler: correctors, schema: { querystring: Type.Object({ taskId: TaskId, no: No }), response: { 200: EnvelopeSchema(SampleCandidatesSchema) } } },
    async (request) => {
      const { taskId, no } = request.query;
      const task = await findMyTask(db, request.principal, taskId);
      const view = await viewer(db, task);
      const papers = (await resultsOf(db, task)).flatMap((r) => paperOf(r, no, view, task) ?? []);
      papers.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.resultId - b.resultId);
      return ok({ no, papers });
    },
  );

  // Replaces the question's samples with these papers, in this order (an empty list clears them).
  app.post(`${BASE}/lecture/samples`, { preHandler: correctors, schema: { body: SaveSamplesBody, response: { 200: EnvelopeSchema(LectureSamplesSchema) } } }, async (request) => {
    const { taskId, no, resultIds } = request.body;
    const task = await findMyTask(db, request.principal, taskId);
    if (new Set(resultIds).size !== resultIds.length) throw badRequest('同一份作答不能重复选为样例');
    if (resultIds.length) {
      const view = await viewer(db, task);
      const found = await resultsOf(db, task, resultIds);
      for (const id of resultIds) {
        const row = found.find((r) => r.id === id);
        // Another task's paper is not this task's: the same answer as one that does not exist.
        if (!row) throw badRequest('所选作答不属于本批改任务');
        if (!paperOf(row, no, view, task)) throw badRequest(`所选作答没有第 ${no} 题的原图，无法作为样例`);
      }
    }
    await db.transaction(async (tx) => {
      await tx.delete(lectureSamples).where(and(eq(lectureSamples.taskId, task.id), eq(lectureSamples.no, no)));
      if (resultIds.length) {
        await tx.insert(lectureSamples).values(resultIds.map((resultId, position) => ({ tenantId: task.tenantId, taskId: task.id, no, resultId, position, createdBy: request.principal.userId })));
      }
    });
    return ok({ samples: await samplesOf(db, task, no) }, resultIds.length ? '样例已保存' : '已清除本题样例');
  });
};
export default lectureRoutes;

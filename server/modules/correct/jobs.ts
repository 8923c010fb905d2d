// The work behind AI correction, run by queue workers (in the server process, or `npm run worker`):
// one job reads one uploaded file; when a task's files are all read, answer sheets get one more
// job that gathers each student's pages and scores them. Results are written by save(), inside the
// transaction that marks the job done, so a retried or taken-over job writes them once. The
// reading and scoring themselves (decoding, OCR) run in a worker thread (reading.ts), so grading
// in the server process never holds up its requests.
import { and, eq, sql } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { answerSheets, gradingFiles, gradingResults, gradingTasks } from '../../db/schema';
import { idList } from '../vesta/access';
import type { FileStore } from '../../files/store';
import { enqueue, type Job } from '../../jobs/queue';
import type { JobHandler } from '../../jobs/worker';
import { runHeavy } from './threadTasks';
import { GradingStatus, RecognitionStatus, TaskType } from '../../grading/statuses';
import { manualQuestions, sheetNos, withManualItems } from './marking';
import { rescore } from './markingScore';
import type { AnswerKey, HomeworkQuestion, ReadPage, SheetLayout } from '../../grading';
import type { EssayBrief, FileOutcome } from './reading';
import { totals, type FiledPage, type GradedWork } from './results';
import { linkOf, recordTaskAnswers, scoreWithKey } from './workLink';
import { ownerOfEssay } from './writtenName';

export const READ_FILE = 'correct-read-file';
export const SCORE_TASK = 'correct-score-task';

type TaskRow = typeof gradingTasks.$inferSelect;

/** Roster sheets print `s<students.id>` in their QR codes; anonymous ones give a student number. */
export const rosterKey = (studentId: number) => `s${studentId}`;
function rosterStudentId(key: string): number | null {
  const m = /^s(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}
type FileRow = typeof gradingFiles.$inferSelect;

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Gathers what reading needs from the database and the store, and reads in a grading thread. */
async function readFile(db: Db, store: FileStore, file: FileRow, task: TaskRow, signal: AbortSignal): Promise<FileOutcome> {
  let layout: SheetLayout | undefined;
  if (task.type === TaskType.answerSheet) {
    const [sheet] = await db.select().from(answerSheets).where(and(eq(answerSheets.id, task.sheetId ?? ''), eq(answerSheets.tenantId, task.tenantId)));
    if (!sheet) return { ok: false, error: '答题卡模板不存在' };
    layout = sheet.layout as SheetLayout;
  }
  // A file on this machine's disk goes by its path: the grading process reads it, and the API
  // process neither holds nor copies its bytes (a class's scan PDF is tens of MB).
  const source = store.localPath ? { path: await store.localPath(file.fileHash) } : { bytes: await readAll(await store.open(file.fileHash)) };
  return runHeavy(
    'grading',
    'readGradingFile',
    {
      taskType: task.type,
      fileName: file.fileName,
      mime: file.mime,
      ...source,
      layout,
      questions: (task.questions as HomeworkQuestion[] | null) ?? undefined,
      essayBrief: (task.essayBrief as EssayBrief | null) ?? undefined,
    },
    signal,
  );
}

/** The task a scoring job is for: refId `<taskId>` or `<taskId>:<newest file id>`. */
const scoredTaskId = (job: Job) => Number(String(job.refId).split(':')[0]);

/** Files some sheet result of the task was graded from (each result page names its file). */
async function scoredFileIds(db: Db, taskId: number): Promise<Set<number>> {
  const ids = await rows<{ id: number }>(db, sql`
    SELECT DISTINCT (p->>'fileId')::int AS id
      FROM grading_results r CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(r.result->'detail'->'pages') = 'array' THEN r.result->'detail'->'pages' ELSE '[]'::jsonb END) p
     WHERE r.task_id = ${taskId} AND p->>'fileId' IS NOT NULL`);
  return new Set(ids.map((r) => r.id));
}

/**
 * Rubric items the teacher applied to a paper stay applied when its page is replaced: the new
 * result's points for those questions follow them (as the task owner's review).
 */
async function carryRubric(tx: Db, task: TaskRow, resultId: number) {
  const applied = await rows<{ no: number }>(tx, sql`
    SELECT DISTINCT i.no FROM grading_rubric_marks m JOIN grading_rubric_items i ON i.id = m.item_id WHERE m.result_id = ${resultId} ORDER BY i.no`);
  if (!applied.length) return;
  const questions = manualQuestions(task, await sheetNos(tx, task));
  const [owner] = await rows<{ userId: number }>(tx, sql`SELECT user_id AS "userId" FROM teachers WHERE id = ${task.teacherId}`);
  for (const { no } of applied) {
    const fullMarks = questions.find((q) => q.no === no)?.fullMarks;
    if (typeof fullMarks === 'number') await rescore(tx, task, no, fullMarks, [resultId], owner!.userId);
  }
}

/** A sheet's result: a student already graded in this task gets theirs replaced, review and all (rubric items stay). */
async function saveResult(tx: Db, task: TaskRow, graded: GradedWork, studentId: number | null, studentKey: string | null) {
  // 解答题 of the sheet count in the total from the start, waiting for the teacher (marking.ts).
  const work = withManualItems(graded, task, await sheetNos(tx, task));
  if (studentId !== null) {
    const [existing] = await rows<{ id: number }>(tx, sql`SELECT id FROM grading_results WHERE task_id = ${task.id} AND student_id = ${studentId} ORDER BY id LIMIT 1`);
    if (existing) {
      const t = totals(work, null);
      await tx
        .update(gradingResults)
        .set({ result: work, studentKey, review: null, reviewedAt: null, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview })
        .where(eq(gradingResults.id, existing.id));
      await carryRubric(tx, task, existing.id);
      return;
    }
  }
  await insertResult(tx, task, work, studentId, studentKey);
}

/**
 * Homework items have no full marks of their own; a task linked to a homework gives the work's,
 * and a photo/PDF homework's own answer key scores them (workLink.ts scoreWithKey).
 */
function withLinkedMax(task: TaskRow, work: GradedWork): GradedWork {
  const link = linkOf(task.answerKey);
  if (!link || work.kind !== 'homework') return work;
  return scoreWithKey({ ...work, items: work.items.map((i) => (i.max === null && link.items[String(i.no)] ? { ...i, max: link.items[String(i.no)]!.points } : i)) }, link);
}

async function insertResult(tx: Db, task: TaskRow, graded: GradedWork, studentId: number | null, studentKey: string | null) {
  await tx.insert(gradingResults).values(await resultRow(tx, task, graded, studentId, studentKey));
}

async function resultRow(tx: Db, task: TaskRow, graded: GradedWork, studentId: number | null, studentKey: string | null) {
  // 解答题 of the sheet count in the total from the start, waiting for the teacher (marking.ts).
  const work = withManualItems(graded, task, await sheetNos(tx, task));
  const t = totals(work, null);
  return { tenantId: task.tenantId, taskId: task.id, studentId, studentKey, result: work, score: t.score, maxScore: t.maxScore, needsReview: t.needsReview };
}

/**
 * A class's sheets in one go: students graded before in this task have theirs replaced one by one
 * (saveResult), the rest are inserted by one statement. On the embedded database a transaction
 * holds every other request's queries, so a class of 45 must not cost 90 round trips.
 */
async function saveResults(tx: Db, task: TaskRow, graded: { work: GradedWork; studentId: number | null; studentKey: string | null }[]) {
  const ids = [...new Set(graded.map((g) => g.studentId).filter((id): id is number => id !== null))];
  const before = new Set(
    ids.length
      ? (await rows<{ studentId: number }>(tx, sql`SELECT DISTINCT student_id AS "studentId" FROM grading_results WHERE task_id = ${task.id} AND student_id IN ${idList(ids)}`)).map((r) => r.studentId)
      : [],
  );
  // A student's later sheet in the same round replaces their earlier one, as a re-upload would.
  const fresh = new Map<number | string, Awaited<ReturnType<typeof resultRow>>>();
  for (const [i, g] of graded.entries()) {
    if (g.studentId !== null && before.has(g.studentId)) await saveResult(tx, task, g.work, g.studentId, g.studentKey);
    else fresh.set(g.studentId ?? `anonymous-${i}`, await resultRow(tx, task, g.work, g.studentId, g.studentKey));
  }
  if (fresh.size) await tx.insert(gradingResults).values([...fresh.values()]);
}

/** After a file is settled: when none of the task's files is still waiting, move the task on. */
async function afterFile(tx: Db, task: TaskRow): Promise<void> {
  const [{ open, read }] = await rows<{ open: number; read: number }>(tx, sql`
    SELECT count(*) FILTER (WHERE recognition_status IN (0, 1, 2))::int AS open,
           count(*) FILTER (WHERE recognition_status = 3)::int AS read
      FROM grading_files WHERE task_id = ${task.id}`);
  if (open > 0) return;
  const [{ results }] = await rows<{ results: number }>(tx, sql`SELECT count(*)::int AS results FROM grading_results WHERE task_id = ${task.id}`);
  // Pages added to a graded task that all failed leave it graded: its failures show in the report.
  if (read === 0 && results === 0) {
    await tx.update(gradingTasks).set({ status: GradingStatus.failed, failReason: '所有文件都无法识别，请检查照片或扫描件后重新上传', updatedAt: sql`now()` }).where(eq(gradingTasks.id, task.id));
  } else if (task.type === TaskType.answerSheet) {
    // One scoring job per round of pages, told apart by the task's newest file (pages added to a
    // graded task make a new round), so the queue's one-job-per-ref rule still stops two files
    // finishing together from scoring the same round twice.
    const [{ newest }] = await rows<{ newest: number }>(tx, sql`SELECT max(id)::int AS newest FROM grading_files WHERE task_id = ${task.id}`);
    await enqueue(tx, { kind: SCORE_TASK, refId: `${task.id}:${newest}`, tenantId: task.tenantId });
  } else {
    await tx.update(gradingTasks).set({ status: GradingStatus.graded, updatedAt: sql`now()` }).where(eq(gradingTasks.id, task.id));
  }
}

async function loadFile(db: Db, job: Job): Promise<{ file: FileRow; task: TaskRow }> {
  const [file] = await db.select().from(gradingFiles).where(eq(gradingFiles.id, Number(job.refId)));
  if (!file) throw new Error(`file ${job.refId} is gone`);
  const [task] = await db.select().from(gradingTasks).where(eq(gradingTasks.id, file.taskId));
  return { file, task };
}

export function correctionHandlers(db: Db, store: FileStore): JobHandler[] {
  const readHandler: JobHandler<FileOutcome> = {
    kind: READ_FILE,
    async run(job, { signal }) {
      const { file, task } = await loadFile(db, job);
      if (file.recognitionStatus === RecognitionStatus.deleted) return { ok: false, error: '文件已删除' };
      await db.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.recognising }).where(eq(gradingFiles.id, file.id));
      return readFile(db, store, file, task, signal);
    },
    async save(tx, job, outcome) {
      const { file, task } = await loadFile(tx, job);
      if (file.recognitionStatus === RecognitionStatus.deleted) return;
      if (!outcome.ok) {
        await tx.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.failed, error: outcome.error }).where(eq(gradingFiles.id, file.id));
      } else {
        await tx
          .update(gradingFiles)
          .set({ recognitionStatus: RecognitionStatus.recognised, reading: outcome.pages ? { pages: outcome.pages, failures: outcome.failures } : outcome.work, error: outcome.failures?.length ? outcome.failures.join('；') : null })
          .where(eq(gradingFiles.id, file.id));
        if (outcome.work) {
          // A photo's result remembers its file, for the review and essay screens.
          // An essay uploaded with the class's batch belongs to the student whose name heads it.
          const essayText = outcome.work.kind === 'essay' ? (outcome.work.detail as { text?: string }).text : undefined;
          const studentId = file.studentId ?? (essayText ? await ownerOfEssay(tx, task, essayText) : null);
          const work = withLinkedMax(task, { ...outcome.work, fileId: file.id });
          await insertResult(tx, task, work, studentId, null);
          await recordTaskAnswers(tx, task, [{ studentId, work }], 'machine');
        }
      }
      await afterFile(tx, task);
    },
    async onDead(deadDb, job, error) {
      await deadDb.transaction(async (tx) => {
        const { file, task } = await loadFile(tx as unknown as Db, job);
        await tx.update(gradingFiles).set({ recognitionStatus: RecognitionStatus.failed, error: `识别失败：${error}` }).where(eq(gradingFiles.id, file.id));
        await afterFile(tx as unknown as Db, task);
      });
    },
  };

  const scoreHandler: JobHandler<{ work: GradedWork; studentKey: string | null }[]> = {
    kind: SCORE_TASK,
    async run(job, { signal }) {
      const [task] = await db.select().from(gradingTasks).where(eq(gradingTasks.id, scoredTaskId(job)));
      const [sheet] = await db.select().from(answerSheets).where(eq(answerSheets.id, task.sheetId ?? ''));
      const files = await db
        .select({ id: gradingFiles.id, reading: gradingFiles.reading })
        .from(gradingFiles)
        .where(and(eq(gradingFiles.taskId, task.id), eq(gradingFiles.recognitionStatus, RecognitionStatus.recognised)))
        .orderBy(gradingFiles.id);
      // Each page remembers its file, so the review screen can show the scan it was read from.
      const filed = (f: (typeof files)[number]): FiledPage[] => ((f.reading as { pages?: ReadPage[] } | null)?.pages ?? []).map((p) => ({ ...p, fileId: f.id }));
      // Only pages not graded yet are scored (pages uploaded into a graded task); a student
      // they belong to keeps their other pages already graded, so the new result is whole.
      const scored = await scoredFileIds(db, task.id);
      const fresh = files.filter((f) => !scored.has(f.id)).flatMap(filed);
      const kept = files.filter((f) => scored.has(f.id)).flatMap(filed);
      const owner = (p: ReadPage) => (p.student.source === 'qr' && p.student.studentId ? `${p.sheetId}|${p.student.studentId}` : null);
      const extra = kept.filter((p) => {
        const key = owner(p);
        return key !== null && fresh.some((q) => owner(q) === key) && !fresh.some((q) => owner(q) === key && q.page === p.page);
      });
      const pages = [...fresh, ...extra];
      if (!pages.length) return [];
      // The link to a homework or exam (`work`) is ours, not the engine's.
      const { work: _link, ...answerKey } = (task.answerKey ?? {}) as Omit<AnswerKey, 'sheetId'> & { work?: unknown };
      const key = task.answerKey ? ({ ...answerKey, sheetId: sheet.id } as AnswerKey) : undefined;
      return runHeavy('grading', 'scoreSheetPages', { pages, layout: sheet.layout as SheetLayout, key }, signal);
    },
    async save(tx, job, graded) {
      const [task] = await tx.select().from(gradingTasks).where(eq(gradingTasks.id, scoredTaskId(job)));
      // QR codes of roster sheets carry our student id; anonymous sheets carry the student number.
      // Both are looked up once, among the students of the task's class, or of the classes the
      // teacher teaches when the task has none: a number from elsewhere in the school stays
      // unmatched (its raw number shown), so a scan never tells a teacher another class's names.
      const keys = graded.map((g) => g.studentKey).filter((k): k is string => !!k);
      const rosterIds = keys.map(rosterStudentId).filter((id): id is number => id !== null);
      const classes = task.classId
        ? sql`class_id = ${task.classId}`
        : sql`class_id IN (SELECT class_id FROM teaching_assignments WHERE teacher_id = ${task.teacherId} AND tenant_id = ${task.tenantId})`;
      const known = keys.length
        ? await rows<{ id: number; studentNo: string }>(tx, sql`
            SELECT id, student_no AS "studentNo" FROM students
             WHERE tenant_id = ${task.tenantId}
               AND school_id = (SELECT school_id FROM teachers WHERE id = ${task.teacherId})
               AND ${classes}
               AND (${rosterIds.length ? sql`id IN ${idList(rosterIds)}` : sql`FALSE`} OR student_no IN ${idList(keys)})`)
        : [];
      const studentOf = (key: string | null) => {
        if (!key) return null;
        const rosterId = rosterStudentId(key);
        return known.find((k) => (rosterId !== null ? k.id === rosterId : k.studentNo === key))?.id ?? null;
      };
      // A student graded before (a page re-uploaded into a graded task) has their result replaced.
      await saveResults(tx, task, graded.map((g) => ({ ...g, studentId: studentOf(g.studentKey) })));
      // A task tied to a homework or exam writes its answer records in the same transaction.
      await recordTaskAnswers(tx, task, graded.map((g) => ({ studentId: studentOf(g.studentKey), work: g.work })), 'machine');
      await tx.update(gradingTasks).set({ status: GradingStatus.graded, updatedAt: sql`now()` }).where(eq(gradingTasks.id, task.id));
    },
    async onDead(deadDb, job, error) {
      await deadDb
        .update(gradingTasks)
        .set({ status: GradingStatus.failed, failReason: `评分失败：${error}`, updatedAt: sql`now()` })
        .where(eq(gradingTasks.id, scoredTaskId(job)));
    },
  };
  return [readHandler as JobHandler, scoreHandler as JobHandler];
}

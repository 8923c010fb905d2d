// Answer sheets: design one (or take an exam's) and print it as a PDF, named per student or anonymous.
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answerSheets, students } from '../../db/schema';
import { badRequest, ok } from '../../http/envelope';
import { fileReply } from '../../http/download';
import { findClass } from '../vesta/access';
import type { SectionSpec, SheetLayout, SheetSpec } from '../../grading';
import { runHeavy } from './threadTasks';
import { BASE, correctors, findMySheet, myTeacherId } from './access';
import { rosterKey } from './jobs';
import { CreateSheetBody, ExamSheetBody } from './schemas';
import { sheetFromExam } from './fromExam';
import { studentNoDigits } from './studentNoDigits';

/** The engine (OCR runtime, image and PDF libraries) loads on first use, not with every API process. */
const loadEngine = () => import('../../grading');

const sheetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(`${BASE}/sheet/create`, { preHandler: correctors, schema: { body: CreateSheetBody } }, async (request) => {
    const body = request.body;
    const p = request.principal;
    const teacherId = await myTeacherId(db, p);
    let classRow: Awaited<ReturnType<typeof findClass>> | undefined;
    if (body.classId) classRow = await findClass(db, p, body.classId);
    if (body.identity === 'roster' && !classRow) throw badRequest('按名单打印需要选择班级');
    const roster = classRow
      ? await db.select({ id: students.id, name: students.name, studentNo: students.studentNo }).from(students).where(and(eq(students.classId, classRow.id), eq(students.status, 0))).orderBy(students.studentNo)
      : [];
    if (body.identity === 'roster' && !roster.length) throw badRequest('该班级还没有学生');
    const sheetId = `S${randomBytes(5).toString('hex').toUpperCase()}`;
    const spec: SheetSpec = {
      sheetId,
      title: body.title,
      paper: body.paper,
      identity:
        body.identity === 'roster'
          ? { mode: 'roster', students: roster.map((s) => ({ id: rosterKey(s.id), name: s.name, className: classRow!.name, studentNo: s.studentNo })) }
          : { mode: 'anonymous', digits: body.digits ?? (await studentNoDigits(db, p.tenantId, p.schoolId)) },
      sections: body.sections as SectionSpec[],
    };
    const { buildLayout } = await loadEngine();
    let layout;
    try {
      layout = buildLayout(spec);
    } catch (error) {
      // The layout builder explains in Chinese what does not fit (too many items, bad digits…).
      throw badRequest((error as Error).message);
    }
    await db.insert(answerSheets).values({ id: sheetId, tenantId: p.tenantId!, teacherId, classId: classRow?.id ?? null, title: body.title, layout });
    return ok({ sheetId, title: body.title, pages: layout.pages.length, copies: body.identity === 'roster' ? roster.length : 1 }, '答题卡已生成');
  });

  // The answer sheet of one of the teacher's exams for one class of it, with the key from its questions.
  app.post(`${BASE}/sheet/fromExam`, { preHandler: correctors, schema: { body: ExamSheetBody } }, async (request) => {
    const { examId, classId } = request.body;
    const p = request.principal;
    return ok(await sheetFromExam(db, p, await myTeacherId(db, p), examId, classId), '答题卡已生成');
  });

  app.get(`${BASE}/sheet/pdf`, { preHandler: correctors, schema: { querystring: Type.Object({ sheetId: Type.String({ minLength: 1, maxLength: 40 }) }) } }, async (request, reply) => {
    const { sheetId } = request.query;
    const sheet = await findMySheet(db, request.principal, sheetId);
    // A class set of copies takes seconds to lay out and embed fonts for: done in a thread.
    const pdf = await runHeavy('requests', 'renderSheet', sheet.layout as SheetLayout);
    return fileReply(reply, 'application/pdf', 'attachment', `答题卡_${sheet.title}.pdf`).send(Buffer.from(pdf));
  });
};

export default sheetRoutes;

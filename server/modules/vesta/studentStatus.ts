// A student's state in the school year: 转入, 转出, 休学, 复学 with their day and reason, and the
// history of them. A student who left keeps every record; from the day they left they are out of
// the lists (status ≠ 在读) and out of the expected counts of work given from then on (left_on).
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dateOnly } from '../../../src/domain/format';
import { REASON_MAX_LENGTH, STATUS_CHANGES, STUDENT_STATUSES, StudentStatus, isDay, statusChangeLabel } from '../../../src/domain/schoolYear';
import { rows } from '../../db/query';
import { badRequest, conflict, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit, someNames } from '../audit/record';
import { adminOnly, checkStudentIds, findClass, schoolOf } from './access';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
const CHANGES = Object.keys(STATUS_CHANGES).map(Number);

const statusLabel = (status: number) => STUDENT_STATUSES.find((s) => s.value === status)?.label ?? '';

interface Target {
  id: number;
  name: string;
  studentNo: string;
  status: number;
  className: string | null;
  lastOn: string | null;
}

const studentStatusRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.post(
    '/api/vesta/student/changeStatus',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object(
          {
            studentIds: Type.Array(Id, { minItems: 1, maxItems: 500 }),
            change: Type.Union(CHANGES.map((k) => Type.Literal(k))),
            onDate: Day,
            reason: Type.Optional(Type.String({ maxLength: REASON_MAX_LENGTH })),
            classId: Type.Optional(Id),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const p = request.principal;
      const s = schoolOf(p);
      const body = request.body;
      const rule = STATUS_CHANGES[body.change as keyof typeof STATUS_CHANGES];
      const ids = [...new Set(body.studentIds)];
      if (!isDay(body.onDate) || body.onDate < '2000-01-01') throw badRequest('生效日期不正确');
      if (body.onDate > dateOnly(new Date())) throw badRequest('生效日期不能晚于今天');
      const reason = body.reason?.trim() || null;
      if (rule.reasonRequired && !reason) throw badRequest(`请填写${rule.label}原因`);
      const leaving = rule.to !== StudentStatus.enrolled;
      if (body.classId !== undefined && leaving) throw badRequest(`${rule.label}不需要选择班级`);
      const target = body.classId !== undefined ? await findClass(db, p, body.classId) : undefined;
      if (target && target.graduatedYear !== null) throw conflict('不能转入已毕业的班级');
      await checkStudentIds(db, p, ids);
      const count = await db.transaction(async (tx) => {
        const list = await rows<Target>(tx, sql`
          SELECT st.id, st.name, st.student_no AS "studentNo", st.status, c.name AS "className",
                 (SELECT to_char(max(h.on_date), 'YYYY-MM-DD') FROM student_status_changes h WHERE h.student_id = st.id) AS "lastOn"
            FROM students st LEFT JOIN classes c ON c.id = st.class_id
           WHERE st.school_id = ${s.schoolId} AND st.id = ANY(${`{${ids.join(',')}}`}::int[])
           ORDER BY st.student_no FOR UPDATE OF st`);
        const wrong = list.find((t) => !rule.from.includes(t.status));
        if (wrong) throw conflict(`${wrong.name}当前为${statusLabel(wrong.status)}，不能${rule.label}`);
        const early = list.find((t) => t.lastOn && t.lastOn > body.onDate);
        if (early) throw conflict(`${early.name}的生效日期不能早于上次变动（${early.lastOn}）`);
        const idArray = `{${ids.join(',')}}`;
        await tx.execute(sql`
          UPDATE students SET status = ${rule.to}, left_on = ${leaving ? body.onDate : null}
                 ${target ? sql`, class_id = ${target.id}` : sql``}
           WHERE id = ANY(${idArray}::int[])`);
        await tx.execute(sql`
          INSERT INTO student_status_changes (tenant_id, school_id, student_id, kind, on_date, reason, class_name, recorded_by)
          SELECT st.tenant_id, st.school_id, st.id, ${body.change}, ${body.onDate}::date, ${reason}, c.name, ${p.userId}
            FROM students st LEFT JOIN classes c ON c.id = st.class_id WHERE st.id = ANY(${idArray}::int[])`);
        const named = list.map((t) => `${t.name}（${t.studentNo}）`);
        const where = target ? `到 ${target.gradeName}${target.name}` : '';
        await recordAudit(tx, request, {
          action: 'update',
          kind: 'student',
          recordId: ids.length === 1 ? ids[0] : null,
          summary: `学生 ${list.length === 1 ? named[0] : `${list.length} 名：${someNames(named)}`} ${body.onDate} ${rule.label}${where}${reason ? `，原因：${reason}` : ''}`,
        });
        return list.length;
      });
      return ok({ count, status: rule.to }, `已登记${rule.label}`);
    },
  );

  app.get('/api/vesta/student/statusHistory', { preHandler: adminOnly, schema: { querystring: Type.Object({ studentId: Id }) } }, async (request) => {
    const { studentId } = request.query;
    await checkStudentIds(db, request.principal, [studentId]);
    const list = await rows<{ change: number; onDate: string; reason: string | null; className: string | null; recordedAt: Date; recordedBy: string | null }>(db, sql`
      SELECT h.id, h.kind AS change, to_char(h.on_date, 'YYYY-MM-DD') AS "onDate", h.reason, h.class_name AS "className",
             h.recorded_at AS "recordedAt", u.name AS "recordedBy"
        FROM student_status_changes h LEFT JOIN users u ON u.id = h.recorded_by
       WHERE h.student_id = ${studentId} ORDER BY h.on_date DESC, h.id DESC LIMIT 200`);
    return ok(list.map((h) => ({ ...h, changeLabel: statusChangeLabel(h.change) })));
  });
};
export default studentStatusRoutes;

// The school year: its terms (学年/学期 settings, the current term every report defaults to) and
// 升年级, the end-of-year promotion: preview, apply in one transaction, undo within
// PROMOTION_UNDO_DAYS. A promotion keeps what it changed (promotions.changes) so that its undo
// restores exactly that.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeSchema } from '../../../src/domain/envelope';
import { dateOnly } from '../../../src/domain/format';
import {
  PROMOTION_UNDO_DAYS,
  PromotionPreviewSchema,
  PromotionRecordSchema,
  SchoolTermSchema,
  SchoolTermsSchema,
  StatusChangeKind,
  StudentStatus,
  finalLevelOf,
  gradeNameOf,
  isDay,
  promotedClassName,
  termLabel,
  type PromotionPreview,
  type PromotionRecord,
} from '../../../src/domain/schoolYear';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { recordAudit } from '../audit/record';
import { adminOnly, schoolOf, type SchoolRef } from './access';
import { schoolCurrentTerm } from './schoolTerm';

const DAY_MS = 24 * 3600 * 1000;
const MAX_TERMS = 12;


interface GradeNow {
  id: number;
  name: string;
  level: number;
}
interface ClassNow {
  id: number;
  name: string;
  gradeId: number;
  studentCount: number;
}

/** What a promotion changed, enough for its undo to put everything back. */
interface PromotionChanges {
  grades: { id: number; name: string; level: number }[];
  classes: { id: number; name: string }[];
  graduatedGradeIds: number[];
  graduatedStudentIds: number[];
  createdGradeIds: number[];
}

interface Plan {
  preview: PromotionPreview;
  grades: GradeNow[];
  classes: ClassNow[];
  /** Levels of the new, empty entry grades. */
  createdLevels: number[];
}

/** The promotion as it would be applied now; refused when the grades cannot be promoted. */
async function plan(db: Db, s: SchoolRef, year: number): Promise<Plan> {
  const grades = await rows<GradeNow>(db, sql`
    SELECT id, name, level FROM grades
     WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} AND graduated_year IS NULL ORDER BY level, id`);
  if (!grades.length) throw conflict('本校没有在读的年级，无需升年级');
  const twice = grades.find((g, i) => grades.findIndex((o) => o.level === g.level) !== i);
  if (twice) throw conflict(`本校有两个${gradeNameOf(twice.level)}，请先合并后再升年级`);
  const classes = await rows<ClassNow>(db, sql`
    SELECT c.id, c.name, c.grade_id AS "gradeId",
           (SELECT count(*)::int FROM students st WHERE st.class_id = c.id AND st.status = ${StudentStatus.enrolled}) AS "studentCount"
      FROM classes c WHERE c.tenant_id = ${s.tenantId} AND c.school_id = ${s.schoolId} AND c.grade_id IN (SELECT id FROM grades WHERE school_id = ${s.schoolId} AND graduated_year IS NULL)
     ORDER BY c.grade_id, c.name, c.id`);
  const of = (g: GradeNow) => classes.filter((c) => c.gradeId === g.id);
  const graduating = grades.filter((g) => g.level === finalLevelOf(g.level));
  const moving = grades.filter((g) => g.level !== finalLevelOf(g.level));
  // The first grade of each stage is left empty by the move; a new one takes the next intake.
  const created = moving.filter((g) => g.level === 1 || g.level === 7 || g.level === 10).map((g) => g.level);
  return {
    grades,
    classes,
    createdLevels: created,
    preview: {
      year,
      graduating: graduating.map((g) => ({ gradeId: g.id, gradeName: g.name, classCount: of(g).length, studentCount: of(g).reduce((n, c) => n + c.studentCount, 0) })),
      moving: moving.map((g) => {
        const to = gradeNameOf(g.level + 1);
        return { gradeId: g.id, from: g.name, to, classes: of(g).map((c) => ({ classId: c.id, from: c.name, to: promotedClassName(c.name, g.name, to), studentCount: c.studentCount })) };
      }),
      created: created.map(gradeNameOf),
    },
  };
}

const summaryOf = (p: PromotionPreview) =>
  [...p.moving.map((m) => `${m.from}→${m.to}`), ...p.graduating.map((g) => `${g.gradeName}毕业（${g.studentCount} 名）`), ...p.created.map((n) => `新建${n}`)].join('，');

interface PromotionRow {
  id: number;
  year: number;
  changes: PromotionChanges;
  summary: string;
  /** Raw rows give timestamps as Date or text, by driver. */
  createdAt: Date | string;
  undoneAt: Date | string | null;
  latest: boolean;
}

function recordOf(row: PromotionRow, now = Date.now()): PromotionRecord {
  const createdAt = new Date(row.createdAt);
  const until = new Date(createdAt.getTime() + PROMOTION_UNDO_DAYS * DAY_MS);
  return {
    id: row.id,
    year: row.year,
    createdAt: createdAt.toISOString(),
    undoUntil: until.toISOString(),
    undoneAt: row.undoneAt ? new Date(row.undoneAt).toISOString() : null,
    undoable: !row.undoneAt && row.latest && until.getTime() > now,
    summary: row.summary,
  };
}

const PROMOTION_SELECT = (s: SchoolRef) => sql`
  SELECT p.id, p.year, p.changes, p.changes->>'summary' AS summary, p.created_at AS "createdAt", p.undone_at AS "undoneAt",
         p.id = (SELECT max(id) FROM promotions WHERE school_id = ${s.schoolId}) AS latest
    FROM promotions p WHERE p.tenant_id = ${s.tenantId} AND p.school_id = ${s.schoolId}`;

const thisYear = () => Number(dateOnly(new Date()).slice(0, 4));
const YearBody = Type.Object({ year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })) }, { additionalProperties: false });

const schoolYearRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  // Any signed-in member of a school reads its current term: the screens' default range.
  app.get('/api/vesta/school/currentTerm', async (request) => {
    const current = await schoolCurrentTerm(db, request.principal.schoolId);
    return ok({ ...current, label: termLabel(current.term) });
  });

  app.get('/api/vesta/school/terms', { preHandler: adminOnly, schema: { response: { 200: EnvelopeSchema(SchoolTermsSchema) } } }, async (request) => {
    const s = schoolOf(request.principal);
    const terms = await rows<{ term: string; startDate: string; endDate: string }>(db, sql`
      SELECT term, to_char(start_date, 'YYYY-MM-DD') AS "startDate", to_char(end_date, 'YYYY-MM-DD') AS "endDate"
        FROM school_terms WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId} ORDER BY start_date`);
    const [school] = await rows<{ currentTerm: string | null }>(db, sql`SELECT current_term AS "currentTerm" FROM schools WHERE id = ${s.schoolId}`);
    const current = await schoolCurrentTerm(db, s.schoolId);
    return ok({ currentTerm: current.term, configured: Boolean(school?.currentTerm), terms: terms.map((t) => ({ ...t, label: termLabel(t.term) })) });
  });

  app.put(
    '/api/vesta/school/terms',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object(
          { currentTerm: Type.String({ pattern: '^20\\d{2}0[12]$', maxLength: 6 }), terms: Type.Array(SchoolTermSchema, { minItems: 1, maxItems: MAX_TERMS }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const s = schoolOf(request.principal);
      const { currentTerm } = request.body;
      const terms = [...request.body.terms].sort((a, b) => a.startDate.localeCompare(b.startDate));
      for (const t of terms) {
        const name = termLabel(t.term);
        if (!isDay(t.startDate) || !isDay(t.endDate)) throw badRequest(`${name}的日期不正确`);
        if (t.startDate >= t.endDate) throw badRequest(`${name}的结束日期须晚于开始日期`);
        const year = Number(t.term.slice(0, 4));
        // A term lies in its school year: 上学期 from its year, 下学期 ending by the next summer.
        if (Number(t.startDate.slice(0, 4)) < year || Number(t.endDate.slice(0, 4)) > year + 1) throw badRequest(`${name}的日期须在${year}-${year + 1}学年内`);
      }
      const seen = new Set<string>();
      for (const [i, t] of terms.entries()) {
        if (seen.has(t.term)) throw badRequest(`${termLabel(t.term)}填写了两次`);
        seen.add(t.term);
        if (i > 0 && t.startDate <= terms[i - 1].endDate) throw badRequest(`${termLabel(terms[i - 1].term)}与${termLabel(t.term)}的日期重叠`);
      }
      if (!seen.has(currentTerm)) throw badRequest('当前学期须是已填写的学期之一');
      await db.transaction(async (tx) => {
        await tx.execute(sql`DELETE FROM school_terms WHERE tenant_id = ${s.tenantId} AND school_id = ${s.schoolId}`);
        const values = sql.join(terms.map((t) => sql`(${s.tenantId}, ${s.schoolId}, ${t.term}, ${t.startDate}::date, ${t.endDate}::date)`), sql`, `);
        await tx.execute(sql`INSERT INTO school_terms (tenant_id, school_id, term, start_date, end_date) VALUES ${values}`);
        await tx.execute(sql`UPDATE schools SET current_term = ${currentTerm} WHERE id = ${s.schoolId} AND tenant_id = ${s.tenantId}`);
        await recordAudit(tx, request, { action: 'update', kind: 'setting', recordId: s.schoolId, summary: `设置学期 ${terms.length} 个，当前学期为${termLabel(currentTerm)}` });
      });
      return ok({ currentTerm }, '学期设置已保存');
    },
  );

  app.get(
    '/api/vesta/promotion/preview',
    { preHandler: adminOnly, schema: { querystring: YearBody, response: { 200: EnvelopeSchema(PromotionPreviewSchema) } } },
    async (request) => {
      const year = request.query.year ?? thisYear();
      if (year > thisYear() + 1) throw badRequest('毕业年份不能晚于明年');
      return ok((await plan(db, schoolOf(request.principal), year)).preview);
    },
  );

  app.get('/api/vesta/promotion/last', { preHandler: adminOnly, schema: { response: { 200: EnvelopeSchema(Type.Union([PromotionRecordSchema, Type.Null()])) } } }, async (request) => {
    const s = schoolOf(request.principal);
    const [last] = await rows<PromotionRow>(db, sql`${PROMOTION_SELECT(s)} ORDER BY p.id DESC LIMIT 1`);
    return ok(last ? recordOf(last) : null);
  });

  app.post('/api/vesta/promotion/apply', { preHandler: adminOnly, schema: { body: YearBody } }, async (request) => {
    const s = schoolOf(request.principal);
    const year = request.body.year ?? thisYear();
    if (year > thisYear() + 1) throw badRequest('毕业年份不能晚于明年');
    const today = dateOnly(new Date());
    const applied = await db.transaction(async (tx) => {
      // One promotion at a time per school: the second waits here and then sees the first.
      await tx.execute(sql`SELECT id FROM schools WHERE id = ${s.schoolId} FOR UPDATE`);
      const [same] = await rows<{ id: number }>(tx, sql`SELECT id FROM promotions WHERE school_id = ${s.schoolId} AND year = ${year} AND undone_at IS NULL`);
      if (same) throw conflict(`${year}年已升过年级，如需重做请先撤销`);
      const { preview, grades, classes, createdLevels } = await plan(tx, s, year);
      const graduatedGradeIds = preview.graduating.map((g) => g.gradeId);
      const changes: PromotionChanges = { grades, classes: classes.map((c) => ({ id: c.id, name: c.name })), graduatedGradeIds, graduatedStudentIds: [], createdGradeIds: [] };
      for (const m of preview.moving) {
        const level = grades.find((g) => g.id === m.gradeId)!.level + 1;
        await tx.execute(sql`UPDATE grades SET level = ${level}, name = ${m.to} WHERE id = ${m.gradeId}`);
        for (const c of m.classes) if (c.to !== c.from) await tx.execute(sql`UPDATE classes SET name = ${c.to} WHERE id = ${c.classId}`);
      }
      if (graduatedGradeIds.length) {
        const ids = sql.join(graduatedGradeIds.map((id) => sql`${id}`), sql`, `);
        await tx.execute(sql`UPDATE grades SET graduated_year = ${year} WHERE id IN (${ids})`);
        const graduated = await rows<{ id: number }>(tx, sql`
          UPDATE students SET status = ${StudentStatus.graduated}, graduated_year = ${year}, left_on = ${today}
           WHERE school_id = ${s.schoolId} AND status = ${StudentStatus.enrolled} AND class_id IN (SELECT id FROM classes WHERE grade_id IN (${ids}))
           RETURNING id`);
        changes.graduatedStudentIds = graduated.map((g) => g.id);
      }
      for (const level of createdLevels) {
        const [row] = await rows<{ id: number }>(tx, sql`
          INSERT INTO grades (tenant_id, school_id, name, level) VALUES (${s.tenantId}, ${s.schoolId}, ${gradeNameOf(level)}, ${level}) RETURNING id`);
        changes.createdGradeIds.push(row.id);
      }
      const summary = summaryOf(preview);
      const [promotion] = await rows<{ id: number; createdAt: Date | string }>(tx, sql`
        INSERT INTO promotions (tenant_id, school_id, year, changes, created_by)
        VALUES (${s.tenantId}, ${s.schoolId}, ${year}, ${JSON.stringify({ ...changes, summary })}::jsonb, ${request.principal.userId})
        RETURNING id, created_at AS "createdAt"`);
      if (changes.graduatedStudentIds.length) {
        await tx.execute(sql`
          INSERT INTO student_status_changes (tenant_id, school_id, student_id, kind, on_date, reason, class_name, promotion_id, recorded_by)
          SELECT st.tenant_id, st.school_id, st.id, ${StatusChangeKind.graduate}, ${today}::date, ${`${year}年毕业`}, c.name, ${promotion.id}, ${request.principal.userId}
            FROM students st LEFT JOIN classes c ON c.id = st.class_id
           WHERE st.id = ANY(${`{${changes.graduatedStudentIds.join(',')}}`}::int[])`);
      }
      await recordAudit(tx, request, { action: 'promote', kind: 'schoolYear', recordId: promotion.id, summary: `${year}年升年级：${summary}` });
      return { id: promotion.id, year, summary, createdAt: promotion.createdAt, undoneAt: null, latest: true, changes };
    });
    return ok(recordOf(applied), '升年级完成');
  });

  app.post('/api/vesta/promotion/undo', { preHandler: adminOnly, schema: { body: Type.Object({ promotionId: Id }, { additionalProperties: false }) } }, async (request) => {
    const s = schoolOf(request.principal);
    const undone = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM schools WHERE id = ${s.schoolId} FOR UPDATE`);
      const [row] = await rows<PromotionRow>(tx, sql`${PROMOTION_SELECT(s)} AND p.id = ${request.body.promotionId}`);
      if (!row) throw notFound('升年级记录不存在');
      if (row.undoneAt) throw conflict('这次升年级已撤销');
      if (!row.latest) throw conflict('只能撤销最近一次升年级');
      if (!recordOf(row).undoable) throw conflict(`升年级已超过${PROMOTION_UNDO_DAYS}天，不能撤销`);
      const c = row.changes;
      if (c.createdGradeIds.length) {
        const created = sql.join(c.createdGradeIds.map((id) => sql`${id}`), sql`, `);
        const [used] = await rows<{ name: string }>(tx, sql`
          SELECT g.name FROM grades g WHERE g.id IN (${created})
             AND (EXISTS (SELECT 1 FROM classes WHERE grade_id = g.id) OR EXISTS (SELECT 1 FROM exams WHERE grade_id = g.id)
                  OR EXISTS (SELECT 1 FROM leader_scopes WHERE grade_id = g.id))
           LIMIT 1`);
        if (used) throw conflict(`新建的${used.name}已有班级或数据，不能撤销；请先删除其中的班级`);
        await tx.execute(sql`DELETE FROM grades WHERE id IN (${created})`);
      }
      for (const g of c.grades) await tx.execute(sql`UPDATE grades SET name = ${g.name}, level = ${g.level}, graduated_year = NULL WHERE id = ${g.id} AND school_id = ${s.schoolId}`);
      for (const cl of c.classes) await tx.execute(sql`UPDATE classes SET name = ${cl.name} WHERE id = ${cl.id} AND school_id = ${s.schoolId}`);
      if (c.graduatedStudentIds.length) {
        await tx.execute(sql`
          UPDATE students SET status = ${StudentStatus.enrolled}, graduated_year = NULL, left_on = NULL
           WHERE school_id = ${s.schoolId} AND status = ${StudentStatus.graduated} AND id = ANY(${`{${c.graduatedStudentIds.join(',')}}`}::int[])`);
      }
      await tx.execute(sql`DELETE FROM student_status_changes WHERE promotion_id = ${row.id}`);
      const [done] = await rows<{ undoneAt: Date | string }>(tx, sql`UPDATE promotions SET undone_at = now() WHERE id = ${row.id} RETURNING undone_at AS "undoneAt"`);
      await recordAudit(tx, request, { action: 'undo', kind: 'schoolYear', recordId: row.id, summary: `撤销${row.year}年升年级：${row.summary}` });
      return { ...row, undoneAt: done.undoneAt };
    });
    return ok(recordOf(undone), '已撤销升年级');
  });
};
export default schoolYearRoutes;

// Students: the filtered list, CRUD, Excel import/export and the import template.
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dateOnly, exportFileName, fileStamp } from '../../../src/domain/format';
import { GENDERS, STUDENT_NO_PATTERN, genderFromLabel, genderLabel, isMobilePhone } from '../../../src/domain/school';
import { BINDING_STATUSES, STUDENT_STATUSES } from '../../../src/domain/enums';
import type { Principal } from '../../auth/principal';
import type { Db } from '../../db';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { preparedRows, rows } from '../../db/query';
import { students } from '../../db/schema';
import { sendWorkbook } from '../../http/download';
import { callerZone } from '../../http/schoolZone';
import { badRequest, conflict, ok } from '../../http/envelope';
import { PagingQuery, page, pageWindow } from '../../http/paging';
import { buildWorkbook, readImport, sendImportErrors, streamWorkbook } from '../../files/xlsx';
import { adminOnly, adminOrTeacher, checkStudentIds, classesByName, cleanName, findClass, findGrade, idList, isAdmin, schoolOf } from './access';
import { Id } from '../../http/schemas';
import { unsafeCells } from '../../http/input';
import { recordAudit, someNames } from '../audit/record';
import { hashPin, isWeakPin, PIN_PATTERN, randomPin } from '../../auth/terminalPins';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { StudentRecordSchema, TerminalPinSchema, TerminalPinState, type StudentRecord } from '../../../src/domain/school';
import { StudentStatus, isDay } from '../../../src/domain/schoolYear';

const Gender = Type.Union([Type.Literal(1), Type.Literal(2)]);
const StudentNo = Type.String({ minLength: 1, maxLength: 32, pattern: STUDENT_NO_PATTERN.source });
const Phone = Type.String({ maxLength: 11, pattern: '^(1[3-9]\\d{9})?$' });
/** 出生日期: empty clears it; a real day between 1990 and today (birthDateProblem). */
const BirthDate = Type.String({ maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' });

const SORTS: Record<string, SQL> = {
  studentNo: sql`s.student_no`,
  name: sql`s.name`,
  gender: sql`s.gender`,
  className: sql`g.level, c.name`,
  createdAt: sql`s.created_at`,
  status: sql`s.status`,
  bindingStatus: sql`s.binding_status`,
};

const StudentFilterQuery = Type.Object({
  gradeId: Type.Optional(Id),
  classId: Type.Optional(Id),
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
  status: Type.Optional(Type.Union(STUDENT_STATUSES.map((o) => Type.Literal(o.value)))),
  bindingStatus: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
  sort: Type.Optional(Type.Union(Object.keys(SORTS).map((k) => Type.Literal(k)))),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
type StudentFilterQuery = Static<typeof StudentFilterQuery>;


const SELECT_STUDENT = sql`
  SELECT s.id, s.id AS "studentId", s.name, s.student_no AS "studentNo", s.gender, s.parent_phone AS "parentPhone",
         s.class_id AS "classId", c.name AS "className", c.grade_id AS "gradeId", g.name AS "gradeName",
         s.status, s.binding_status AS "bindingStatus", s.graduated_year AS "graduatedYear", s.created_at AS "createdAt",
         to_char(s.birth_date, 'YYYY-MM-DD') AS "birthDate", to_char(s.left_on, 'YYYY-MM-DD') AS "leftOn",
         (CASE WHEN s.terminal_pin_hash IS NULL THEN ${TerminalPinState.none}
               WHEN s.pin_locked_until > now() THEN ${TerminalPinState.locked} ELSE ${TerminalPinState.set} END)::int AS "terminalPin"
    FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id`;

/**
 * A student of the list as a row value, which PostgreSQL turns into compact JSON with these
 * names, in this order: the fields of StudentRecordSchema.
 */
const STUDENT_ROW = sql`(SELECT r FROM (SELECT
  s.id, s.id AS "studentId", s.name, s.student_no AS "studentNo", s.gender, s.parent_phone AS "parentPhone",
  s.class_id AS "classId", c.name AS "className", c.grade_id AS "gradeId", g.name AS "gradeName",
  s.status, s.binding_status AS "bindingStatus", s.graduated_year AS "graduatedYear",
  to_char(s.birth_date, 'YYYY-MM-DD') AS "birthDate", to_char(s.left_on, 'YYYY-MM-DD') AS "leftOn",
  -- As the drivers read a timestamptz elsewhere: PostgreSQL's text ('2026-11-27 08:30:00.123+00').
  s.created_at::text AS "createdAt",
  (CASE WHEN s.terminal_pin_hash IS NULL THEN ${TerminalPinState.none}
        WHEN s.pin_locked_until > now() THEN ${TerminalPinState.locked} ELSE ${TerminalPinState.set} END)::int AS "terminalPin") r)`;

/** Why a typed or imported terminal PIN is refused, or undefined. */
function terminalPinProblem(pin: string): string | undefined {
  if (!PIN_PATTERN.test(pin)) return '终端PIN须为6位数字';
  if (isWeakPin(pin)) return '终端PIN过于简单（如123456、000000），请换一个';
  return undefined;
}

/** Why a typed or imported birth date is refused, or undefined. */
function birthDateProblem(day: string): string | undefined {
  if (!isDay(day)) return '出生日期格式不正确，应为“2012-09-01”这样的日期';
  if (day < '1990-01-01' || day > dateOnly(new Date())) return '出生日期不在合理范围内';
  return undefined;
}

/** Text that may be part of a student number (STUDENT_NO_PATTERN's characters). */
const STUDENT_NO_TEXT = /^[A-Za-z0-9-]+$/;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Students whose name or number may contain the keyword: every pair of its characters (its one
 * character, if it has one) is among their search_grams (migration 0037), read off a GIN index.
 */
function keywordCandidates(keyword: string): SQL {
  const chars = Array.from(keyword);
  const grams = chars.length === 1 ? chars : chars.slice(1).map((c, i) => chars[i] + c);
  return sql`s.search_grams @> ARRAY[${sql.join([...new Set(grams)].map((g) => sql`${g}`), sql`, `)}]::text[]`;
}

/** WHERE for the student list and export: the caller's school (teachers: their classes) plus filters. */
async function studentWhere(db: Db, p: Principal, q: StudentFilterQuery): Promise<SQL> {
  const school = schoolOf(p);
  const parts: SQL[] = [sql`s.tenant_id = ${school.tenantId}`, sql`s.school_id = ${school.schoolId}`];
  if (!isAdmin(p)) {
    parts.push(sql`s.class_id IN (SELECT ta.class_id FROM teaching_assignments ta JOIN teachers t ON t.id = ta.teacher_id WHERE t.user_id = ${p.userId})`);
    // A teacher's roster is who is in the class: those who transferred out or are suspended leave it.
    if (q.status === undefined) parts.push(sql`s.status NOT IN (${StudentStatus.transferredOut}, ${StudentStatus.suspended})`);
  }
  if (q.classId !== undefined) parts.push(sql`s.class_id = ${(await findClass(db, p, q.classId)).id}`);
  if (q.gradeId !== undefined) parts.push(sql`s.class_id IN (SELECT id FROM classes WHERE grade_id = ${(await findGrade(db, p, q.gradeId)).id})`);
  const keyword = q.keyword?.trim();
  // The index of the students' character pairs finds the candidates; the LIKE decides.
  if (keyword) parts.push(keywordCandidates(keyword));
  // A keyword that no student number could contain (a Chinese name, say) is looked for in names only.
  if (keyword && STUDENT_NO_TEXT.test(keyword)) parts.push(sql`(s.name LIKE ${likePattern(keyword)} OR s.student_no LIKE ${likePattern(keyword)})`);
  else if (keyword) parts.push(sql`s.name LIKE ${likePattern(keyword)}`);
  if (q.status !== undefined) parts.push(sql`s.status = ${q.status}`);
  if (q.bindingStatus !== undefined) parts.push(sql`s.binding_status = ${q.bindingStatus}`);
  return sql.join(parts, sql` AND `);
}

function studentOrder(q: StudentFilterQuery): SQL {
  const direction = q.order === 'desc' ? sql`DESC` : sql`ASC`;
  const key = SORTS[q.sort ?? 'studentNo'];
  // A unique tail keeps paging stable when the sort key repeats.
  return sql`${key} ${direction} NULLS LAST, s.id ${direction}`;
}

const IMPORT_COLUMNS = ['姓名', '学号', '性别', '年级', '班级', '家长手机号', '出生日期', '终端PIN'] as const;
const REQUIRED_COLUMNS = ['姓名', '学号', '年级', '班级'];
/** The PIN column; the name on the student cards some schools print (卡片码) is read too. */
const PIN_COLUMNS = ['终端PIN', '卡片码'];
const TEMPLATE_NOTE = [
  '带 * 的列必填。',
  '学号在本校内唯一，由字母、数字或“-”组成；重复导入同一学号会更新该学生的信息，不会新增重复学生。',
  '性别填写“男”或“女”。',
  '年级、班级须与系统中的名称一致，如“七年级”“七(1)班”。',
  '家长手机号为11位手机号码，可不填。',
  '出生日期写成“2012-09-01”，可不填（不填则不修改）；未满14周岁的学生提交心声需监护人同意。',
  '终端PIN为6位数字（列名也可写“卡片码”），学生在打印终端实名提交心声时输入；不填则不修改已有的终端PIN。请勿使用“123456”“000000”这类简单数字。',
  '单次最多导入5000条数据。',
].join('\n');

const studentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get(
    '/api/vesta/student/page',
    {
      preHandler: adminOrTeacher,
      schema: { querystring: Type.Object({ ...PagingQuery, ...StudentFilterQuery.properties }), response: { 200: EnvelopeSchema(PageSchema(StudentRecordSchema)) } },
    },
    async (request, reply) => {
      const q = request.query;
      const { current, size, offset } = pageWindow(q);
      const where = await studentWhere(db, request.principal, q);
      // The count and the page in one round trip, the page as JSON made by the database: one row
      // of two values for the driver to read instead of 17 columns a student, and no row objects to
      // build and serialise again (the list is the school admin's busiest call). Without a keyword
      // the page is read in order off an index and stops after `size` rows; a keyword
      // (LIKE '%…%') reads every student of the school, so it is read once for both.
      const keyword = Boolean(q.keyword?.trim());
      const pageOf = (from: SQL) => sql`
        SELECT coalesce(json_agg(p.record ORDER BY p.ord), '[]')::text FROM (
          SELECT row_number() OVER (ORDER BY ${studentOrder(q)}) AS ord, ${STUDENT_ROW} AS record
            FROM students s LEFT JOIN classes c ON c.id = s.class_id LEFT JOIN grades g ON g.id = c.grade_id
           WHERE ${from} ORDER BY ${studentOrder(q)} LIMIT ${size} OFFSET ${offset}) p`;
      const [found] = await preparedRows<{ total: number; records: string }>(
        db,
        'student_page',
        keyword
          ? sql`WITH matched AS MATERIALIZED (SELECT s.id FROM students s WHERE ${where})
                SELECT (SELECT count(*)::int FROM matched) AS total, (${pageOf(sql`s.id IN (SELECT id FROM matched)`)}) AS records`
          : // Without a keyword every condition is on a counted column: the count is a sum over
            // student_counts (kept by triggers), a few rows a class instead of every student.
            sql`SELECT (SELECT coalesce(sum(s.n), 0)::int FROM student_counts s WHERE ${where}) AS total, (${pageOf(where)}) AS records`,
      );
      // The envelope and page (ok(), page()) around the database's JSON: the reply the schema describes.
      const { code, msg, success } = ok(null);
      const { total, pages } = page([], found.total, current, size);
      const body = `{"code":${code},"msg":${JSON.stringify(msg)},"success":${success},"data":{"records":${found.records},"total":${total},"current":${current},"size":${size},"pages":${pages}}}`;
      // JSON text with a JSON content type goes out as it is: the schema documents it, nothing re-serialises it.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.get(
    '/api/vesta/student/exportStudentData',
    { preHandler: adminOrTeacher, schema: { querystring: StudentFilterQuery } },
    async (request, reply) => {
      const q = request.query;
      const where = await studentWhere(db, request.principal, q);
      const list = await rows<StudentRecord>(db, sql`${SELECT_STUDENT} WHERE ${where} ORDER BY ${studentOrder(q)}`);
      const statusLabel = (v: number, options: { label: string; value: number }[]) => options.find((o) => o.value === v)?.label ?? '';
      const stream = streamWorkbook(
        '学生',
        [
          { header: '学号', width: 16 },
          { header: '姓名', width: 12 },
          { header: '性别', width: 8 },
          { header: '年级', width: 10 },
          { header: '班级', width: 12 },
          { header: '家长手机号', width: 16 },
          { header: '状态', width: 8 },
          { header: '绑定状态', width: 10 },
          { header: '毕业年份', width: 10 },
          { header: '出生日期', width: 12 },
        ],
        list.map((s) => [
          s.studentNo,
          s.name,
          genderLabel(s.gender),
          s.gradeName ?? '',
          s.className ?? '',
          s.parentPhone ?? '',
          statusLabel(s.status, STUDENT_STATUSES),
          statusLabel(s.bindingStatus, BINDING_STATUSES),
          s.graduatedYear ?? '',
          s.birthDate ?? '',
        ]),
      );
      return sendWorkbook(reply, stream, exportFileName('学生数据', fileStamp(new Date(), await callerZone(db, request.principal)), 'xlsx'));
    },
  );

  app.get('/api/vesta/student/importTemplate', { preHandler: adminOnly }, async (_request, reply) => {
    const bytes = await buildWorkbook(
      '学生',
      IMPORT_COLUMNS.map((c) => ({ header: REQUIRED_COLUMNS.includes(c) ? `${c}*` : c, width: c === '家长手机号' ? 16 : 12 })),
      [],
      TEMPLATE_NOTE,
    );
    return sendWorkbook(reply, bytes, '学生导入模板.xlsx');
  });

  app.post(
    '/api/vesta/student/add',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          studentNo: StudentNo,
          gender: Type.Optional(Gender),
          classId: Id,
          parentPhone: Type.Optional(Phone),
          birthDate: Type.Optional(Type.Union([BirthDate, Type.Null()])),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      const s = schoolOf(p);
      const name = cleanName(body.name, '姓名');
      const target = await findClass(db, p, body.classId);
      if (target.graduatedYear !== null) throw conflict('该班级已毕业，不能新增学生');
      const birthProblem = body.birthDate ? birthDateProblem(body.birthDate) : undefined;
      if (birthProblem) throw badRequest(birthProblem);
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(students)
            .values({ ...s, classId: target.id, name, studentNo: body.studentNo, gender: body.gender ?? null, parentPhone: body.parentPhone || null, birthDate: body.birthDate || null })
            .returning({ id: students.id });
          await recordAudit(tx, request, { action: 'create', kind: 'student', recordId: created.id, summary: `新增学生 ${name}（${body.studentNo}）到 ${target.gradeName}${target.name}` });
          return created;
        });
        return ok({ id: row.id, studentId: row.id }, '新增成功');
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`学号${body.studentNo}已存在`, { studentNo: `学号${body.studentNo}已存在` });
        throw err;
      }
    },
  );

  app.post(
    '/api/vesta/student/update',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({
          studentId: Id,
          name: Type.Optional(Type.String({ maxLength: 200 })),
          studentNo: Type.Optional(StudentNo),
          gender: Type.Optional(Type.Union([Gender, Type.Null()])),
          classId: Type.Optional(Id),
          parentPhone: Type.Optional(Type.Union([Phone, Type.Null()])),
          birthDate: Type.Optional(Type.Union([BirthDate, Type.Null()])),
        }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const body = request.body;
      const p = request.principal;
      await checkStudentIds(db, p, [body.studentId]);
      const changes: Partial<typeof students.$inferInsert> = {};
      if (body.name !== undefined) changes.name = cleanName(body.name, '姓名');
      if (body.studentNo !== undefined) changes.studentNo = body.studentNo;
      if (body.gender !== undefined) changes.gender = body.gender;
      if (body.parentPhone !== undefined) changes.parentPhone = body.parentPhone || null;
      if (body.birthDate !== undefined) {
        const problem = body.birthDate ? birthDateProblem(body.birthDate) : undefined;
        if (problem) throw badRequest(problem);
        changes.birthDate = body.birthDate || null;
      }
      if (body.classId !== undefined) {
        const target = await findClass(db, p, body.classId);
        if (target.graduatedYear !== null) throw conflict('不能转入已毕业的班级');
        changes.classId = target.id;
      }
      if (Object.keys(changes).length) {
        try {
          await db.transaction(async (tx) => {
            const [before] = await rows<{ name: string; studentNo: string }>(tx, sql`SELECT name, student_no AS "studentNo" FROM students WHERE id = ${body.studentId}`);
            await tx.update(students).set(changes).where(eq(students.id, body.studentId));
            await recordAudit(tx, request, { action: 'update', kind: 'student', recordId: body.studentId, summary: `修改学生 ${before.name}（${before.studentNo}）的${changedFields(changes)}` });
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict(`学号${body.studentNo}已存在`, { studentNo: `学号${body.studentNo}已存在` });
          throw err;
        }
      }
      return ok({ id: body.studentId, studentId: body.studentId }, '修改成功');
    },
  );

  app.post(
    '/api/vesta/student/remove',
    {
      preHandler: adminOnly,
      schema: { body: Type.Object({ studentId: Type.Optional(Id), studentIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 5000 })) }) },
    },
    async (request) => {
      const body = request.body;
      const ids = [...new Set([...(body.studentIds ?? []), ...(body.studentId ? [body.studentId] : [])])];
      if (!ids.length) throw badRequest('学生不能为空');
      await checkStudentIds(db, request.principal, ids);
      try {
        await db.transaction(async (tx) => {
          const gone = await tx.delete(students).where(inArray(students.id, ids)).returning({ name: students.name, studentNo: students.studentNo });
          const named = gone.map((g) => `${g.name}（${g.studentNo}）`);
          await recordAudit(tx, request, { action: 'delete', kind: 'student', recordId: ids.length === 1 ? ids[0] : null, summary: gone.length === 1 ? `删除学生 ${named[0]}` : `删除学生 ${gone.length} 名：${someNames(named)}` });
        });
      } catch (err) {
        if (isForeignKeyViolation(err)) throw conflict('所选学生已有作业或错题记录，不能删除');
        throw err;
      }
      return ok({ count: ids.length }, '删除成功');
    },
  );

  /**
   * Sets a student's terminal PIN (`pin`, typed by the admin) or draws a random one (no `pin`),
   * and clears a lockout. The PIN is answered this once; only its keyed hash is kept.
   */
  app.post(
    '/api/vesta/student/terminalPin',
    {
      preHandler: adminOnly,
      schema: {
        body: Type.Object({ studentId: Id, pin: Type.Optional(Type.String({ maxLength: 6 })) }, { additionalProperties: false }),
        response: { 200: EnvelopeSchema(TerminalPinSchema) },
      },
    },
    async (request) => {
      const { studentId, pin: typed } = request.body;
      await checkStudentIds(db, request.principal, [studentId]);
      const problem = typed !== undefined ? terminalPinProblem(typed) : undefined;
      if (problem) throw badRequest(problem);
      const pin = typed ?? randomPin();
      await db.execute(sql`
        UPDATE students SET terminal_pin_hash = ${hashPin(app.config.pinKey, studentId, pin)}, pin_failures = 0, pin_locked_until = NULL
         WHERE id = ${studentId}`);
      return ok({ studentId, pin }, typed ? '终端PIN已设置' : '终端PIN已重置，请告知学生本人');
    },
  );

  app.post('/api/vesta/student/importData', { preHandler: adminOnly, schema: { querystring: ImportQuery } }, async (request, reply) => {
    const p = request.principal;
    // 是否更新已经存在的数据: the admin answers before uploading; without an answer, as before, update.
    const updateExisting = request.query.update !== 0;
    const s = schoolOf(p);
    const imported = await readImport(request, REQUIRED_COLUMNS);

    const classByName = await classesByName(db, s);

    const errors = new Map<number, string>();
    const firstRowOf = new Map<string, number>();
    const valid: { rowNumber: number; name: string; studentNo: string; gender: number | null; classId: number; parentPhone: string | null; birthDate: string | null; pin: string | null }[] = [];
    for (const { rowNumber, values } of imported.rows) {
      const problems: string[] = unsafeCells(values);
      const name = values['姓名'] ?? '';
      const studentNo = values['学号'] ?? '';
      const genderText = values['性别'] ?? '';
      const phone = values['家长手机号'] ?? '';
      const pin = PIN_COLUMNS.map((c) => values[c]).find(Boolean) ?? '';
      const pinProblem = pin ? terminalPinProblem(pin) : undefined;
      if (pinProblem) problems.push(pinProblem);
      if (!name) problems.push('姓名不能为空');
      else if ([...name].length > 50) problems.push('姓名长度不能超过50个字符');
      if (!studentNo) problems.push('学号不能为空');
      else if (!STUDENT_NO_PATTERN.test(studentNo)) problems.push('学号只能包含字母、数字或“-”，且不超过32位');
      else if (firstRowOf.has(studentNo)) problems.push(`学号与第${firstRowOf.get(studentNo)}行重复`);
      else firstRowOf.set(studentNo, rowNumber);
      const gender = genderText ? genderFromLabel(genderText) : null;
      if (gender === undefined) problems.push(`性别只能填写${GENDERS.map((g) => g.label).join('或')}`);
      if (phone && !isMobilePhone(phone)) problems.push('家长手机号格式不正确');
      const birthDate = values['出生日期'] ?? '';
      const birthProblem = birthDate ? birthDateProblem(birthDate) : undefined;
      if (birthProblem) problems.push(birthProblem);
      const gradeName = values['年级'] ?? '';
      const className = values['班级'] ?? '';
      const cls = classByName.get(`${gradeName}|${className}`);
      if (!gradeName || !className) problems.push('年级和班级不能为空');
      else if (!cls) problems.push(`本校没有${gradeName}${className}`);
      else if (cls.graduatedYear !== null) problems.push(`${gradeName}已毕业`);
      if (problems.length) errors.set(rowNumber, problems.join('；'));
      else valid.push({ rowNumber, name, studentNo, gender: gender ?? null, classId: cls!.id, parentPhone: phone || null, birthDate: birthDate || null, pin: pin || null });
    }

    if (errors.size) return sendImportErrors(reply, imported, errors, '学生导入结果.xlsx');

    // All or nothing: one transaction, matched on student number within the school.
    const result = await db
      .transaction(async (tx) => {
        let created = 0;
        let updated = 0;
        let skipped = 0;
        for (let i = 0; i < valid.length; i += 1000) {
          const chunk = valid.slice(i, i + 1000);
          const existing = await rows<{ id: number; studentNo: string }>(tx, sql`
            SELECT id, student_no AS "studentNo" FROM students
             WHERE school_id = ${s.schoolId} AND student_no IN ${idList(chunk.map((r) => r.studentNo))}`);
          const idByNo = new Map(existing.map((e) => [e.studentNo, e.id]));
          const fresh = chunk.filter((r) => !idByNo.has(r.studentNo));
          if (fresh.length) {
            const inserted = await tx
              .insert(students)
              .values(fresh.map((r) => ({ ...s, classId: r.classId, name: r.name, studentNo: r.studentNo, gender: r.gender, parentPhone: r.parentPhone, birthDate: r.birthDate })))
              .returning({ id: students.id, studentNo: students.studentNo });
            inserted.forEach((r) => idByNo.set(r.studentNo, r.id));
            created += fresh.length;
          }
          // The PIN is hashed with the student's id, so it is written once the id exists; a
          // student left as they are keeps their PIN too.
          const pins = chunk.filter((r) => r.pin && (updateExisting || fresh.includes(r))).map((r) => ({ i: idByNo.get(r.studentNo)!, h: hashPin(app.config.pinKey, idByNo.get(r.studentNo)!, r.pin!) }));
          if (pins.length) {
            await tx.execute(sql`
              UPDATE students st SET terminal_pin_hash = x.h, pin_failures = 0, pin_locked_until = NULL
                FROM jsonb_to_recordset(${JSON.stringify(pins)}::jsonb) AS x(i int, h text) WHERE st.id = x.i`);
          }
          const known = chunk.filter((r) => existing.some((e) => e.studentNo === r.studentNo));
          if (!updateExisting) skipped += known.length;
          else if (known.length) {
            const values = sql.join(known.map((r) => sql`(${idByNo.get(r.studentNo)}::int, ${r.name}::text, ${r.gender}::smallint, ${r.classId}::int, ${r.parentPhone}::text, ${r.birthDate}::date)`), sql`, `);
            // An empty 出生日期 cell keeps the date already known.
            await tx.execute(sql`
              UPDATE students st SET name = v.name, gender = v.gender, class_id = v.class_id, parent_phone = v.parent_phone,
                     birth_date = coalesce(v.birth_date, st.birth_date)
                FROM (VALUES ${values}) AS v(id, name, gender, class_id, parent_phone, birth_date)
               WHERE st.id = v.id`);
            updated += known.length;
          }
        }
        await recordAudit(tx, request, { action: 'import', kind: 'student', summary: `导入学生 ${valid.length} 名（新增 ${created} 名，更新 ${updated} 名，跳过 ${skipped} 名）` });
        return { total: valid.length, created, updated, skipped };
      })
      .catch((err) => {
        // Someone added one of these numbers while the file was being checked.
        if (isUniqueViolation(err)) throw conflict('导入期间学号被占用，请重新导入');
        throw err;
      });
    reply.header('x-import-result', 'success');
    // After a large import, refresh the planner's statistics and the visibility map (what lets
    // counts use the index): PostgreSQL's autovacuum would do this later, PGlite has none.
    if (result.created + result.updated >= LARGE_IMPORT) {
      reply.raw.once('finish', () => {
        db.execute(sql`VACUUM (ANALYZE) students`).catch((err) => request.log.warn(err, 'vacuum after import failed'));
      });
    }
    return ok(result, `导入成功：新增${result.created}名，${updateExisting ? `更新${result.updated}名` : `跳过已存在的${result.skipped}名（未更新）`}`);
  });
};
export default studentRoutes;

/** `update` 0: students already on the roll (same 学号) are left as they are; 1 (the default): updated from the file. */
const ImportQuery = Type.Object({ update: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })) });

const STUDENT_FIELD_NAMES: Record<string, string> = { name: '姓名', studentNo: '学号', gender: '性别', parentPhone: '家长手机号', classId: '班级', birthDate: '出生日期' };

/** 姓名、班级: what an update changed, by name (never the values: a phone number stays out of the log). */
const changedFields = (changes: object) => Object.keys(changes).map((key) => STUDENT_FIELD_NAMES[key] ?? key).join('、');

/** Rows an import must touch before the table is vacuumed after it. */
const LARGE_IMPORT = 500;


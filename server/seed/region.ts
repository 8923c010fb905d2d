// The demo region 杭州市西湖区: besides 杭州市西湖区实验中学 three smaller schools, each a tenant of
// its own (as every school is), so the researcher reads a region of four schools across tenants
// (docs/api-analysis.md, "Region scope"), and a 联考 — the first school's 七年级数学 exam, sat by all
// four — reported side by side. Runs after the main seed and copies the first school's homework and
// exam paper (whatever the content seed wrote), so it does not depend on the question banks.
import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import * as t from '../db/schema';
import { rows } from '../db/query';
import { QuestionType, SourceType } from '../../src/domain/content';
import { rebuildRollups } from '../modules/minerva/answers';
import { random } from './draft';
import { OPTION_RANGES } from './schoolWork';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const DEMO_REGION = '杭州市西湖区';

/** The region's other schools: name, the account of its principal, how strong its students are on average. */
export const REGION_SCHOOLS = [
  { name: '杭州市西湖区文苑中学', principal: 'principal3', principalName: '吕校长', admin: 'schooladmin3', effect: 0.25 },
  { name: '杭州市西湖区翠苑中学', principal: 'principal4', principalName: '施校长', admin: 'schooladmin4', effect: -0.2 },
  { name: '杭州市西湖区紫金港中学', principal: 'principal5', principalName: '苗校长', admin: 'schooladmin5', effect: 0.05 },
] as const;

const GRADES = [
  { name: '七年级', level: 7, short: '七' },
  { name: '八年级', level: 8, short: '八' },
  { name: '九年级', level: 9, short: '九' },
];
const CLASSES_PER_GRADE = 2;
/** The 英语 teacher of each region school's grade that sets no homework in the demo. */
const UNTAUGHT_TEACHERS = ['程思远', '沈雅婷', '邵博文'];
/** Small schools' classes: 26–33 students, not all alike (by school, then class of the grade). */
const CLASS_SIZES = [
  [31, 28],
  [33, 29],
  [26, 30],
];
/** Homework copied per class and subject from the first school's class of the same grade. */
const HOMEWORKS = 8;
/** What the schools teach with the app: 七年级数学 (and the 联考) and 八年级语文. */
const TAUGHT: { level: number; subject: string }[] = [
  { level: 7, subject: '数学' },
  { level: 8, subject: '语文' },
];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾'.split('');
const GIVEN = '子涵梓轩浩宇欣怡雨桐一诺思远佳琪俊杰嘉怡博文雅婷宇航诗涵泽宇梦瑶晨曦若汐'.split('');

/** A 64-bit hash of the key parts, as the main seed draws its answers (the same on every run). */
const digest = (parts: string) => `hashtextextended(concat_ws(':', ${parts}), 20261127)`;
const uniform = (hash: string, n: number) => sql.raw(`(((${hash}) >> ${n * 20}) & 1048575)::float8 / 1048576`);

export async function seedRegion(tx: Tx, passwordHash: string): Promise<void> {
  const next = random(20261127);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)];
  const [home] = await rows<{ id: number; tenantId: number }>(tx, sql`SELECT id, tenant_id AS "tenantId" FROM schools WHERE name = '杭州市西湖区实验中学'`);
  if (!home) return;
  const subjects = await rows<{ id: number; name: string }>(tx, sql`SELECT id, name FROM subjects ORDER BY id`);

  // The 联考: the home school's latest 七年级数学 exam, its paper sat by every school of the region.
  const [source] = await rows<{ id: number; title: string; examDate: string; term: string; fullMarks: number; items: unknown; paperId: number | null; subjectId: number }>(tx, sql`
    SELECT e.id, e.title, to_char(e.exam_date, 'YYYY-MM-DD') AS "examDate", e.term, e.full_marks AS "fullMarks", e.items, e.paper_id AS "paperId", co.subject_id AS "subjectId"
      FROM exams e JOIN grades g ON g.id = e.grade_id JOIN courses co ON co.id = e.course_id JOIN subjects su ON su.id = co.subject_id
     WHERE e.school_id = ${home.id} AND g.level = 7 AND su.name = '数学' ORDER BY e.exam_date DESC, e.id DESC LIMIT 1`);
  const [joint] = source
    ? await tx
        .insert(t.jointExams)
        .values({ region: DEMO_REGION, title: `西湖区${source.title.replace(/考试$/, '')}联考`, subjectId: source.subjectId, gradeLevel: 7, examDate: source.examDate, term: source.term, fullMarks: source.fullMarks })
        .returning()
    : [];
  if (joint && source) await tx.execute(sql`UPDATE exams SET joint_exam_id = ${joint.id} WHERE id = ${source.id}`);

  const abilities: { student_id: number; ability: number }[] = [];
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const tenants: number[] = [];

  for (const [si, s] of REGION_SCHOOLS.entries()) {
    const [tenant] = await tx.insert(t.tenants).values({ name: s.name }).returning();
    tenants.push(tenant.id);
    const [school] = await tx.insert(t.schools).values({ tenantId: tenant.id, name: s.name, region: DEMO_REGION }).returning();
    const base = { tenantId: tenant.id, schoolId: school.id };
    const courseRows = await tx.insert(t.courses).values(subjects.map((su) => ({ ...base, subjectId: su.id, name: su.name }))).returning();
    const user = async (username: string, name: string, role: string) => {
      const [u] = await tx.insert(t.users).values({ ...base, username, name, passwordHash }).returning();
      await tx.insert(t.userRoles).values({ userId: u.id, tenantId: tenant.id, roleKey: `xz:${role}` });
      return u;
    };
    await user(s.principal, s.principalName, 'schoolMaster');
    await user(s.admin, `${s.name.slice(-4, -2)}校务`, 'schoolAdmin');

    const classes: { id: number; level: number; gradeId: number }[] = [];
    for (const g of GRADES) {
      const [grade] = await tx.insert(t.grades).values({ ...base, name: g.name, level: g.level }).returning();
      const made = await tx
        .insert(t.classes)
        .values(Array.from({ length: CLASSES_PER_GRADE }, (_, i) => ({ ...base, gradeId: grade.id, name: `${g.short}(${i + 1})班` })))
        .returning();
      classes.push(...made.map((c) => ({ id: c.id, level: g.level, gradeId: grade.id })));
    }
    for (const c of classes) {
      const no = classes.filter((x) => x.level === c.level).findIndex((x) => x.id === c.id) + 1;
      const classEffect = s.effect + normal() * 0.2;
      const made = await tx
        .insert(t.students)
        .values(
          Array.from({ length: CLASS_SIZES[si % CLASS_SIZES.length][(no - 1) % 2] }, (_, i) => ({
            ...base,
            classId: c.id,
            name: pick(SURNAMES) + pick(GIVEN) + (next() < 0.6 ? pick(GIVEN) : ''),
            studentNo: `${2026 - (c.level - 7)}${si + 6}${String(no).padStart(2, '0')}${String(i + 1).padStart(2, '0')}`,
            gender: next() < 0.5 ? 1 : 2,
            bindingStatus: next() < 0.5 ? 1 : 0,
          })),
        )
        .returning({ id: t.students.id });
      for (const st of made) abilities.push({ student_id: st.id, ability: classEffect + normal() });
    }

    // One teacher per subject taught, with both classes of the grade; homework copied from the home school.
    for (const [k, taught] of TAUGHT.entries()) {
      const name = pick(SURNAMES) + pick(GIVEN) + pick(GIVEN);
      const [u] = await tx.insert(t.users).values({ ...base, username: `s${si + 6}t${String(k + 1).padStart(2, '0')}`, name, passwordHash }).returning();
      await tx.insert(t.userRoles).values({ userId: u.id, tenantId: tenant.id, roleKey: 'xz:teacher' });
      const [teacher] = await tx.insert(t.teachers).values({ ...base, userId: u.id, name, job: `${taught.subject}教师` }).returning();
      const course = courseRows.find((co) => co.name === taught.subject)!;
      const mine = classes.filter((c) => c.level === taught.level);
      await tx.insert(t.teachingAssignments).values(mine.map((c) => ({ tenantId: tenant.id, teacherId: teacher.id, classId: c.id, courseId: course.id })));
      for (const c of mine) {
        await tx.execute(sql`
          INSERT INTO homeworks (tenant_id, teacher_id, class_id, course_id, title, assigned_at, due_at, source_type, book_id, selection, items, term)
          SELECT ${tenant.id}, ${teacher.id}, ${c.id}, ${course.id}, h.title, h.assigned_at, h.due_at, h.source_type, h.book_id, h.selection, h.items, h.term
            FROM homeworks h
           WHERE h.class_id = (SELECT c.id FROM classes c JOIN grades g ON g.id = c.grade_id WHERE c.school_id = ${home.id} AND g.level = ${taught.level} ORDER BY c.id LIMIT 1)
             AND h.course_id = (SELECT id FROM courses WHERE school_id = ${home.id} AND name = ${taught.subject})
           ORDER BY h.assigned_at DESC LIMIT ${HOMEWORKS}`);
      }
      if (joint && source && taught.level === 7 && taught.subject === '数学') {
        const [exam] = await tx
          .insert(t.exams)
          .values({ ...base, gradeId: mine[0].gradeId, courseId: course.id, title: source.title, examDate: source.examDate, term: source.term, fullMarks: source.fullMarks, items: source.items as never, createdBy: u.id, jointExamId: joint.id })
          .returning();
        await tx.insert(t.examClasses).values(mine.map((c) => ({ tenantId: tenant.id, examId: exam.id, classId: c.id })));
      }
    }
    // Every grade has its teachers, though only the subjects above set homework in the demo: a
    // 九年级 whose classes nobody teaches is no school's. Names are fixed, not drawn, so the random
    // stream (and every student and answer after) stays as it was.
    for (const [k, g] of GRADES.filter((x) => !TAUGHT.some((taught) => taught.level === x.level)).entries()) {
      const name = UNTAUGHT_TEACHERS[si]!;
      const [u] = await tx.insert(t.users).values({ ...base, username: `s${si + 6}t${String(TAUGHT.length + k + 1).padStart(2, '0')}`, name, passwordHash }).returning();
      await tx.insert(t.userRoles).values({ userId: u.id, tenantId: tenant.id, roleKey: 'xz:teacher' });
      const [teacher] = await tx.insert(t.teachers).values({ ...base, userId: u.id, name, job: '英语教师' }).returning();
      const course = courseRows.find((co) => co.name === '英语')!;
      const theirs = classes.filter((c) => c.level === g.level);
      await tx.insert(t.teachingAssignments).values(theirs.map((c) => ({ tenantId: tenant.id, teacherId: teacher.id, classId: c.id, courseId: course.id })));
    }
    await tx.execute(sql`UPDATE homeworks SET batch_id = id WHERE batch_id IS NULL AND tenant_id = ${tenant.id}`);
  }
  if (!tenants.length) return;
  await simulate(tx, tenants, abilities, home.tenantId);
  for (const id of tenants) await rebuildRollups(tx, id);
}

/**
 * Every student's answers to the region schools' homework and exam: P(correct) =
 * logistic(1.1·ability − 0.9·(difficulty − 3) + ease), a few missed homeworks, as the main seed does.
 * A student who does not know a choice item picks an option as the main seed's students do (the
 * item's own distractors); one who does not know a fill-in writes one of the wrong answers the home
 * school's students wrote to it, or leaves it empty.
 */
async function simulate(tx: Tx, tenants: number[], abilities: { student_id: number; ability: number }[], homeTenant: number): Promise<void> {
  await tx.execute(sql`
    WITH ability AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(abilities)}::jsonb) AS a(student_id int, ability float8)),
    work AS (
      SELECT h.tenant_id, h.source_type, h.id AS source_id, h.class_id, h.term, co.subject_id, h.items,
             h.assigned_at + interval '5 hours' AS answered_at, 0.7::float8 AS ease, 0.05::float8 AS skip
        FROM homeworks h JOIN courses co ON co.id = h.course_id WHERE h.tenant_id IN (SELECT unnest(${`{${tenants.join(',')}}`}::int[]))
      UNION ALL
      SELECT e.tenant_id, ${SourceType.exam}::smallint, e.id, ec.class_id, e.term, co.subject_id, e.items,
             (e.exam_date::timestamp + interval '1 hour') AT TIME ZONE 'UTC', 0::float8, 0.02::float8
        FROM exams e JOIN exam_classes ec ON ec.exam_id = e.id JOIN courses co ON co.id = e.course_id WHERE e.tenant_id IN (SELECT unnest(${`{${tenants.join(',')}}`}::int[]))
    ),
    sitting AS (
      SELECT w.*, s.id AS student_id, s.school_id, a.ability FROM work w
        JOIN students s ON s.class_id = w.class_id AND s.status = 0 JOIN ability a ON a.student_id = s.id
       WHERE ${uniform(digest("s.id, w.source_type, w.source_id"), 0)} >= w.skip
    ),
    drawn AS (
      SELECT w.*, q.id AS question_id, q.type, q.answer AS key, q.knowledge_point_ids, (it->>'points')::real AS points,
             1 / (1 + exp(-(1.1 * w.ability - 0.9 * (q.difficulty - 3) + w.ease))) AS p,
             ${sql.raw(digest('w.student_id, w.source_type, w.source_id, q.id'))} AS hash
        FROM sitting w CROSS JOIN LATERAL jsonb_array_elements(w.items) it JOIN questions q ON q.id = (it->>'questionId')::int
    ),
    graded AS (SELECT d.*, ${uniform('d.hash', 0)} < d.p AS knows, ${uniform('d.hash', 1)} AS u2, ${uniform('d.hash', 2)} AS u3 FROM drawn d),
    options AS (${OPTION_RANGES}),
    slips AS (
      -- The home school's wrong answers to each fill-in, as often as they were written.
      SELECT r.question_id, jsonb_agg(r.answer ORDER BY r.answer) AS slips
        FROM answer_records r JOIN questions q ON q.id = r.question_id
       WHERE r.tenant_id = ${homeTenant} AND NOT r.is_correct AND r.answer IS NOT NULL
         AND q.type NOT IN (${QuestionType.single}, ${QuestionType.judge}, ${QuestionType.multiple})
         AND r.question_id IN (SELECT DISTINCT question_id FROM drawn)
       GROUP BY r.question_id
    ),
    answered AS (
      SELECT g.*,
             CASE WHEN g.knows THEN g.key
                  WHEN g.type IN (${QuestionType.single}, ${QuestionType.judge}) THEN o.opt
                  WHEN g.type = ${QuestionType.multiple} THEN left(g.key, 1)
                  WHEN g.u2 < 0.2 OR s.slips IS NULL THEN NULL
                  ELSE s.slips->>(floor(g.u3 * jsonb_array_length(s.slips))::int) END AS written
        FROM graded g
        LEFT JOIN options o ON o.question_id = g.question_id AND g.type IN (${QuestionType.single}, ${QuestionType.judge}) AND g.u3 >= o.lo AND g.u3 < o.hi
        LEFT JOIN slips s ON s.question_id = g.question_id
    ),
    scored AS (
      SELECT a.*, CASE WHEN a.type IN (${QuestionType.single}, ${QuestionType.judge}) THEN a.written IS NOT DISTINCT FROM a.key ELSE a.knows END AS correct FROM answered a
    )
    INSERT INTO answer_records (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                knowledge_point_ids, is_correct, score, max_score, answer, graded_by, answered_at)
    SELECT tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term, knowledge_point_ids, correct,
           CASE WHEN correct THEN points WHEN type = ${QuestionType.answer} AND written IS NOT NULL THEN floor(points * 0.8 * u2) ELSE 0 END,
           points, written, ${t.GradedBy.machine}, answered_at
      FROM scored`);
}

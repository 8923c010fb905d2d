// 错题组卷 figure: a class's personalised wrong-question paper PDF (POST /volumePaper/pdf) through the
// real app on the demo school (PGlite), for a class of 45 students and its 20 most-missed
// questions with two similar questions each (the heaviest paper the screen allows per question).
// The demo class has 40 students: five more join it with the answer records of five classmates,
// so every student has wrong questions of their own. Median of RUNS calls, and the first. Also the
// pages per student of that paper (the heaviest; the test's 5-question paper is held to ≤ 1.5) and
// of the AI批改 sheet of the demo exam.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { buildApp } from '../server/app';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';

const RUNS = 3;
const CLASS_SIZE = 45;

export async function benchVolumePaper(): Promise<BenchRow[]> {
  const demo = await openTestDatabase({ url: '' });
  const app = await buildApp({ db: demo.db, config: testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'xz-bench-volume-')) }) });
  try {
    const [{ classId, courseId }] = await rows<{ classId: number; courseId: number }>(demo.db, sql`
      SELECT ta.class_id AS "classId", ta.course_id AS "courseId" FROM teaching_assignments ta
        JOIN teachers te ON te.id = ta.teacher_id JOIN users u ON u.id = te.user_id JOIN courses co ON co.id = ta.course_id
       WHERE u.username = 'teacher' AND co.name = '数学' ORDER BY ta.class_id LIMIT 1`);
    const [{ n }] = await rows<{ n: number }>(demo.db, sql`SELECT count(*)::int AS n FROM students WHERE class_id = ${classId} AND status = 0`);
    const extra = Math.max(0, CLASS_SIZE - n);
    if (extra) {
      const twins = await rows<{ id: number; newId: number }>(demo.db, sql`
        WITH src AS (SELECT * FROM students WHERE class_id = ${classId} AND status = 0 ORDER BY id LIMIT ${extra}),
             ins AS (INSERT INTO students (tenant_id, school_id, class_id, name, student_no, status)
                     SELECT tenant_id, school_id, class_id, name || '乙', 'B' || student_no, 0 FROM src RETURNING id, student_no)
        SELECT src.id, ins.id AS "newId" FROM src JOIN ins ON ins.student_no = 'B' || src.student_no`);
      for (const t of twins) {
        await demo.db.execute(sql`
          INSERT INTO answer_records (tenant_id, source_type, source_id, student_id, question_id, school_id, class_id, subject_id, term,
                                      knowledge_point_ids, is_correct, score, max_score, answer, graded_by, reviewer_id, answered_at)
          SELECT tenant_id, source_type, source_id, ${t.newId}, question_id, school_id, class_id, subject_id, term,
                 knowledge_point_ids, is_correct, score, max_score, answer, graded_by, reviewer_id, answered_at
            FROM answer_records WHERE student_id = ${t.id}`);
      }
    }
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const base = '/api/wrongbook/v1.0/web/volumePaper';
    const candidates = await app.inject({ url: `${base}/candidates?classId=${classId}&courseId=${courseId}`, headers });
    const questionIds = (candidates.json().data.list as { id: number }[]).map((q) => q.id);
    const body = { classId, courseId, questionIds, mode: 'personal', variants: 2 };
    const preview = (await app.inject({ method: 'POST', url: `${base}/preview`, headers, payload: body })).json().data;
    const times: number[] = [];
    let pages = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await app.inject({ method: 'POST', url: `${base}/pdf`, headers, payload: body });
      times.push((performance.now() - t0) / 1000);
      if (res.statusCode !== 200) throw new Error(`volume paper PDF: ${res.statusCode} ${res.body.slice(0, 300)}`);
      pages = (await PDFDocument.load(res.rawPayload)).getPageCount();
    }
    const sorted = [...times].sort((a, b) => a - b);
    // The AI批改 sheet of the demo exam (24 items) for the same class: pages a student hands in.
    const [exam] = await rows<{ id: number }>(demo.db, sql`SELECT id FROM exams WHERE title = '七年级数学第一次月考' ORDER BY id LIMIT 1`);
    const examSheet = (await app.inject({ method: 'POST', url: '/api/wrongbook/v1.0/correct/sheet/fromExam', headers, payload: { examId: exam.id, classId } })).json().data;
    return [
      { name: 'answer_sheet_demo_exam_pages_per_student', value: examSheet.pages, unit: '', target: '1' },
      { name: 'volume_paper_personal_students', value: preview.students.length, unit: '', target: String(CLASS_SIZE) },
      { name: 'volume_paper_personal_questions', value: preview.itemCount, unit: '', target: `${questionIds.length} + similar` },
      { name: 'volume_paper_personal_pages', value: pages, unit: '', target: '' },
      { name: 'volume_paper_personal_pages_per_student', value: Math.round((pages / preview.students.length) * 100) / 100, unit: '', target: '' },
      { name: 'volume_paper_personal_pdf_first_s', value: times[0], unit: 's', target: '≤ 10' },
      { name: 'volume_paper_personal_pdf_median_s', value: sorted[Math.floor(sorted.length / 2)], unit: 's', target: '≤ 10' },
    ];
  } finally {
    await app.close();
    await demo.close();
  }
}

// Exam report figures: the report of one class and of a whole grade, through the real app
// (HTTP inject: auth, access checks, the report's queries, serialisation), p95 over RUNS calls —
// on a generated district in PostgreSQL (bench/district.ts; when DATABASE_URL is set) and on
// PGlite at the demo school.
//
// SCALE sets the district's size: 1 is 50 schools, 100,000 students, ~20 M answer records;
// SCALE=0.04 is 2 schools for a quick run. The district database is dropped at the end unless
// `--keep`; `--reuse` measures a kept district again without loading it.
import { mkdtempSync, rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { openDatabase, type Database } from '../server/db';
import { rows } from '../server/db/query';
import { DEMO_PASSWORD } from '../server/seed';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import { benchTeacher, describeDistrict, districtExists, districtUrl, dropDistrict, generateDistrict, type DistrictFigures } from './district';
import type { BenchRow } from './table';

const RUNS = 100;
const FULL_SCHOOLS = 50;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

interface ReportTimes {
  classMs: number[];
  gradeMs: number[];
  classStudents: number;
  gradeStudents: number;
  gradeClasses: number;
}

/**
 * Times the exam report of `examTitle` for each teacher's first class and for the whole grade.
 * Runs take the teachers in turn, so on the district consecutive calls read different schools'
 * data rather than the pages the previous call left in PostgreSQL's buffers.
 */
async function timeReports(database: Database, usernames: string[], examTitle: string): Promise<ReportTimes> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-exams-'));
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  try {
    const targets: { headers: Record<string, string>; classUrl: string; gradeUrl: string }[] = [];
    for (const username of usernames) {
      const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username, password: DEMO_PASSWORD } });
      if (login.statusCode !== 200) throw new Error(`login ${username}: ${login.body}`);
      const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
      const list = await app.inject({ url: '/api/minerva/v1.0/exams?size=50', headers });
      const exam = (list.json().data.records as { id: number; title: string; classes: { classId: number }[] }[]).find((e) => e.title === examTitle);
      if (!exam) throw new Error(`${username} sees no exam ${examTitle}: ${list.body.slice(0, 300)}`);
      targets.push({ headers, classUrl: `/api/minerva/v1.0/exams/${exam.id}/report?classId=${exam.classes[0].classId}`, gradeUrl: `/api/minerva/v1.0/exams/${exam.id}/report` });
    }
    const call = async (url: string, headers: Record<string, string>) => {
      const t0 = performance.now();
      const res = await app.inject({ url, headers });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, report: res.json().data as { participants: number; scope: { classIds: number[] } } };
    };
    // Warm-up: the app's code paths and connections, on one school only.
    for (let i = 0; i < 5; i++) for (const url of [targets[0].classUrl, targets[0].gradeUrl]) await call(url, targets[0].headers);
    const classMs: number[] = [];
    const gradeMs: number[] = [];
    const last = { classStudents: 0, gradeStudents: 0, gradeClasses: 0 };
    // One call at a time, as teachers open reports one after another.
    for (let i = 0; i < RUNS; i++) {
      const target = targets[i % targets.length];
      const c = await call(target.classUrl, target.headers);
      classMs.push(c.ms);
      const g = await call(target.gradeUrl, target.headers);
      gradeMs.push(g.ms);
      if (i === 0) Object.assign(last, { classStudents: c.report.participants, gradeStudents: g.report.participants, gradeClasses: g.report.scope.classIds.length });
    }
    return { classMs, gradeMs, ...last };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function reportRows(times: ReportTimes, label: string): BenchRow[] {
  return [
    { name: `exam_report_class_p95_ms_${label}`, value: percentile(times.classMs, 0.95), unit: 'ms', target: '≤ 100' },
    { name: `exam_report_class_p50_ms_${label}`, value: percentile(times.classMs, 0.5), unit: 'ms', target: '' },
    { name: `exam_report_grade_p95_ms_${label}`, value: percentile(times.gradeMs, 0.95), unit: 'ms', target: '≤ 300' },
    { name: `exam_report_grade_p50_ms_${label}`, value: percentile(times.gradeMs, 0.5), unit: 'ms', target: '' },
    { name: `exam_report_runs_${label}`, value: times.classMs.length, unit: '', target: '≥ 50' },
    { name: `exam_report_class_students_${label}`, value: times.classStudents, unit: '', target: '' },
    { name: `exam_report_grade_students_${label}`, value: times.gradeStudents, unit: '', target: '' },
    { name: `exam_report_grade_classes_${label}`, value: times.gradeClasses, unit: '', target: '' },
  ];
}

function districtRows(f: Partial<DistrictFigures> & Pick<DistrictFigures, 'schools' | 'students' | 'answerRecords' | 'sizes'>): BenchRow[] {
  const out: BenchRow[] = [
    { name: 'district_schools', value: f.schools, unit: '', target: String(FULL_SCHOOLS) },
    { name: 'district_students', value: f.students, unit: '', target: '100000' },
    { name: 'district_answer_records', value: f.answerRecords, unit: '', target: '20000000' },
  ];
  if (f.loadSeconds !== undefined) {
    out.push(
      { name: 'district_load_s', value: f.loadSeconds, unit: 's', target: '' },
      { name: 'district_answers_insert_s', value: f.answersSeconds!, unit: 's', target: '' },
      { name: 'district_rollups_build_s', value: f.rollupsSeconds!, unit: 's', target: '' },
      { name: 'district_rollup_sample_mismatches', value: f.rollupSampleMismatches!, unit: '', target: '0' },
    );
  }
  const s = f.sizes;
  out.push(
    { name: 'answer_records_size_mb', value: s.answer_records, unit: 'MB', target: '' },
    { name: 'answer_records_heap_mb', value: s.answer_records_heap, unit: 'MB', target: '' },
    { name: 'work_question_stats_size_mb', value: s.work_question_stats, unit: 'MB', target: '' },
    { name: 'work_student_stats_size_mb', value: s.work_student_stats, unit: 'MB', target: '' },
    { name: 'class_knowledge_stats_size_mb', value: s.class_knowledge_stats, unit: 'MB', target: '' },
    { name: 'student_knowledge_stats_size_mb', value: s.student_knowledge_stats, unit: 'MB', target: '' },
    { name: 'district_database_size_mb', value: s.database, unit: 'MB', target: '' },
  );
  return out;
}

async function benchDistrict(serverUrl: string): Promise<BenchRow[]> {
  const scale = Number(process.env.SCALE ?? 1);
  const schools = Math.max(1, Math.round(FULL_SCHOOLS * scale));
  const reuse = process.argv.includes('--reuse') && (await districtExists(serverUrl));
  const keep = process.argv.includes('--keep') || reuse;
  let database: Database | undefined;
  const out: BenchRow[] = [];
  try {
    if (reuse) {
      database = await openDatabase({ url: districtUrl(serverUrl), poolSize: 10 });
      out.push(...districtRows(await describeDistrict(database.db)));
    } else {
      console.error(`  generating a district of ${schools} schools`);
      const generated = await generateDistrict(serverUrl, schools);
      database = generated.database;
      out.push(...districtRows(generated.figures));
      if (generated.figures.rollupSampleMismatches) throw new Error(`rollups disagree with the write path on ${generated.figures.rollupSampleMismatches} rows`);
    }
    // Ten schools spread over the district (all of them in a smaller one).
    const schoolIds = (await rows<{ id: number }>(database.db, sql`SELECT id FROM schools ORDER BY id`)).map((r) => r.id);
    const picked = schoolIds.filter((_, k) => k % Math.max(1, Math.floor(schoolIds.length / 10)) === 0).slice(0, 10);
    out.push(...reportRows(await timeReports(database, picked.map(benchTeacher), '七年级数学期中考试'), 'pg'));
  } finally {
    await database?.close();
    if (!keep) await dropDistrict(serverUrl);
  }
  return out;
}

export async function benchExams(): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  if (process.env.DATABASE_URL) out.push(...(await benchDistrict(process.env.DATABASE_URL)));
  // The demo school: grade 7 has four classes; the teacher 陈静 teaches maths in two of them.
  const demo = await openTestDatabase({ url: '' });
  try {
    out.push(...reportRows(await timeReports(demo, ['teacher'], '七年级数学期中考试'), 'pglite'));
  } finally {
    await demo.close();
  }
  return out;
}

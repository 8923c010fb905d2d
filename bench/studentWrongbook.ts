// Student wrong-answer book figures at the demo school (PGlite): a class's student list and one
// student's page through the real app (HTTP inject: auth, scope checks, the derivation of mastery
// from the records, serialisation), p95 over RUNS calls.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { DEMO_PASSWORD } from '../server/seed';
import { testConfig } from '../tests/support/testApp';
import { openTestDatabase } from '../tests/support/testDatabase';
import type { BenchRow } from './table';

const RUNS = 30;

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

export async function benchStudentWrongbook(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xz-bench-wrongbook-'));
  const database = await openTestDatabase({ url: '' });
  const app = await buildApp({ db: database.db, config: testConfig({ dataDir }) });
  try {
    const login = await app.inject({ method: 'POST', url: '/api/juno/auth/login', payload: { username: 'teacher', password: DEMO_PASSWORD } });
    const headers = { 'blade-auth': `bearer ${login.json().data.accessToken}` };
    const classes = (await app.inject({ url: '/api/vesta/teaching/getTeachClass?leaderType=1', headers })).json().data;
    const courses = (await app.inject({ url: `/api/vesta/teaching/getCourseList?classId=${classes[0].id}&gradeId=${classes[0].gradeId}&leaderType=1`, headers })).json().data;
    const listUrl = `/api/wrongbook/v1.0/web/student/list?classId=${classes[0].id}&courseId=${courses[0].courseId}`;
    const time = async (url: string) => {
      const out: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const res = await app.inject({ url, headers });
        out.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.body.slice(0, 200)}`);
      }
      return out;
    };
    const listMs = await time(listUrl);
    const list = (await app.inject({ url: listUrl, headers })).json().data;
    const detailMs = await time(`/api/wrongbook/v1.0/web/student/detail?studentId=${list.students[0].studentId}&courseId=${courses[0].courseId}`);
    const wrong = list.students.reduce((s: number, r: { wrongCount: number }) => s + r.wrongCount, 0);
    return [
      { name: 'student_wrongbook_list_p95_ms_pglite', value: p95(listMs), unit: 'ms', target: '≤ 100' },
      { name: 'student_wrongbook_list_students_pglite', value: list.students.length, unit: '', target: '' },
      { name: 'student_wrongbook_list_wrong_questions_pglite', value: wrong, unit: '', target: '' },
      { name: 'student_wrongbook_detail_p95_ms_pglite', value: p95(detailMs), unit: 'ms', target: '≤ 100' },
      { name: 'student_wrongbook_detail_wrong_questions_pglite', value: list.students[0].wrongCount, unit: '', target: '' },
    ];
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Demo AI-correction tasks on the first start, made the way the teacher `teacher` would make them:
// through the real HTTP API of the server that has just started listening, and graded by its real
// worker. A class's 七年级数学 unit quiz on a roster answer sheet (scans rendered by the engine's
// corpus generator: mostly right answers, some wrong, a few half-filled bubbles that get flagged),
// a short math essay task with photos of a few students' handwriting, and a sheet printed for the
// next quiz that is not uploaded yet (待提交). Nothing here fabricates a result.
import { buildLayout } from '../grading/layout/build';
import type { SectionSpec, SheetLayout } from '../grading/layout/types';
import { makeScan, type Filling } from '../grading/corpus/generate';
import { homeworkPhoto } from '../grading/corpus/homeworkPhoto';
import type { MarkStyle } from '../grading/corpus/marks';
import { rng } from '../grading/corpus/random';
import { DEMO_PASSWORD } from './index';

const BASE = '/api/wrongbook/v1.0/correct';

/** 七年级数学 第二章 有理数 单元小测: 18 single-choice items (5 points) and 2 multiple-choice (5). */
export const QUIZ_TITLE = '七年级数学 第二章 有理数 单元小测';
export const QUIZ_SECTIONS: SectionSpec[] = [
  { kind: 'objective', title: '一、单项选择题（每题5分）', items: Array.from({ length: 18 }, (_, i) => ({ no: i + 1, type: 'single' as const, options: 4 })) },
  { kind: 'objective', title: '二、多项选择题（每题5分，少选得3分）', items: [19, 20].map((no) => ({ no, type: 'multiple' as const, options: 4 })) },
];
/** The key, and how hard each item is (the share of an average class that misses it). */
export const QUIZ_KEY = ['B', 'C', 'A', 'D', 'B', 'A', 'C', 'D', 'B', 'A', 'C', 'B', 'D', 'A', 'C', 'B', 'D', 'A', 'AC', 'BD'];
const DIFFICULTY = [0.05, 0.08, 0.1, 0.12, 0.1, 0.15, 0.18, 0.12, 0.2, 0.22, 0.25, 0.2, 0.3, 0.28, 0.32, 0.35, 0.38, 0.45, 0.4, 0.5];
const ANSWER_KEY = {
  multipleRule: { missing: 0.6, wrong: 0 },
  items: Object.fromEntries(QUIZ_KEY.map((answer, i) => [String(i + 1), { answer, points: 5 }])),
};
/** Students whose sheets were not handed in (absent that day). */
const ABSENT = 4;

/** Short essays written for the demo: 数学写作《生活中的负数》. */
const ESSAYS = [
  ['生活中的负数', '冬天的早上天气预报说', '今天最低气温零下五度', '写作负五摄氏度', '我才知道负数就在身边', '电梯里的负一楼是地下车库', '妈妈的账本上支出记作负数', '负数让我们把相反的量', '说得清清楚楚', '我以后要多观察生活'],
  ['生活中的负数', '上周我们学习了有理数', '老师说海平面以下的高度', '可以用负数来表示', '吐鲁番盆地是负一百五十四米', '我还发现银行卡的流水里', '取钱的金额前面有负号', '原来数学离我们这么近', '我喜欢这样有用的知识'],
  ['生活中的负数', '周末我和爸爸去滑雪', '山上的温度计显示零下十度', '比山下低了八度', '我用刚学的减法算了一算', '山下是零下二度', '回家后我把这件事写下来', '负数让我看到了数学的用处'],
  ['生活中的负数', '足球比赛有净胜球', '我们班输了两个球', '净胜球就是负二', '下一场我们赢了三个球', '加起来净胜球是正一', '同学们都很高兴', '我觉得负数一点也不难'],
];

type Headers = Record<string, string>;

async function call<T>(url: string, headers: Headers, path: string, init: { json?: unknown; form?: FormData } = {}): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method: init.json || init.form ? 'POST' : 'GET',
    headers: { ...headers, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : init.form,
  });
  const body = (await res.json()) as { success: boolean; msg: string; data: T };
  if (!body.success) throw new Error(`${path}: ${body.msg}`);
  return body.data;
}

function upload(url: string, headers: Headers, taskId: number, name: string, bytes: Buffer, studentId?: number) {
  const form = new FormData();
  form.append('taskId', String(taskId));
  if (studentId) form.append('studentId', String(studentId));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  return call(url, headers, `${BASE}/task/upload`, { form });
}

/** One student's pencil marks: right with a chance that falls with the item's difficulty. */
function studentMarks(r: () => number, ability: number, hesitant: boolean): Filling['objective'] {
  const objective: Filling['objective'] = {};
  const hesitantItem = hesitant ? 8 + Math.floor(r() * 10) : -1;
  QUIZ_KEY.forEach((answer, i) => {
    const no = i + 1;
    const right = r() > DIFFICULTY[i] * (1.6 - ability);
    let labels: string[];
    if (right) labels = [...answer];
    else if (answer.length > 1) labels = r() < 0.6 ? [answer[0]] : [answer[0], 'D' === answer[1] ? 'C' : 'D'];
    else if (r() < 0.03) labels = [];
    else labels = [['A', 'B', 'C', 'D'].filter((l) => l !== answer)[Math.floor(r() * 3)]];
    const style: MarkStyle = no === hesitantItem ? 'half' : r() < 0.01 ? 'light' : 'full';
    objective[no] = labels.map((label) => ({ label, style }));
  });
  return objective;
}

/**
 * Creates and submits the demo tasks as `teacher` against the server at `url`. Returns once all
 * is uploaded and submitted; the server's worker grades them afterwards.
 */
export async function seedDemoGrading(url: string): Promise<void> {
  const login = await call<{ accessToken: string }>(url, {}, '/api/juno/auth/login', { json: { username: 'teacher', password: DEMO_PASSWORD } });
  const headers = { 'Blade-Auth': `bearer ${login.accessToken}`, 'X-Active-Role': 'mpTeacher' };
  const classes = await call<{ id: number; className: string }[]>(url, headers, '/api/vesta/teaching/getTeachClass?leaderType=1');
  const [klass, nextClass = classes[0]] = classes;
  const roster = await call<{ records: { id: number; name: string }[] }>(url, headers, `/api/vesta/student/page?classId=${klass.id}&status=0&size=100`);
  const students = roster.records;

  // The quiz: a roster sheet, the class's scans, submitted.
  const sheet = await call<{ sheetId: string }>(url, headers, `${BASE}/sheet/create`, {
    json: { title: QUIZ_TITLE, paper: 'A4', identity: 'roster', classId: klass.id, sections: QUIZ_SECTIONS },
  });
  // The same layout the server printed (same sheet id, roster in student-number order), to know
  // where each pencil mark goes.
  const layout: SheetLayout = buildLayout({
    sheetId: sheet.sheetId,
    title: QUIZ_TITLE,
    paper: 'A4',
    identity: { mode: 'roster', students: students.map((s) => ({ id: `s${s.id}`, name: s.name, className: klass.className })) },
    sections: QUIZ_SECTIONS,
  });
  const quiz = await call<{ id: number }>(url, headers, `${BASE}/task/create`, { json: { type: 3, title: `${QUIZ_TITLE}批改`, classId: klass.id, sheetId: sheet.sheetId, answerKey: ANSWER_KEY } });
  const r = rng(20260901);
  const handedIn = students.slice(0, Math.max(1, students.length - ABSENT));
  for (const [i, student] of handedIn.entries()) {
    const ability = 0.55 + r() * 0.45;
    const filling: Filling = { copy: { sheetId: sheet.sheetId, page: 1, studentId: `s${student.id}` }, objective: studentMarks(r, ability, i % 9 === 4) };
    const scan = await makeScan(layout, filling, { rotateDeg: (r() - 0.5) * 3, noise: 3, jpegQuality: 80 }, 5000 + i);
    await upload(url, headers, quiz.id, `扫描_${String(i + 1).padStart(2, '0')}.jpg`, scan);
  }
  await call(url, headers, `${BASE}/task/submit`, { json: { taskId: quiz.id } });

  // The essays: one photo per student, named at upload.
  const essay = await call<{ id: number }>(url, headers, `${BASE}/task/create`, {
    json: { type: 2, title: '数学小作文《生活中的负数》', classId: klass.id, essayBrief: { title: '生活中的负数', minChars: 60, fullMarks: 20 } },
  });
  for (const [i, lines] of ESSAYS.entries()) {
    const photo = await homeworkPhoto(lines.map((text, n) => ({ text, hand: n > 0 })), 7000 + i, { rotateDeg: (r() - 0.5) * 2, noise: 3 });
    await upload(url, headers, essay.id, `作文_${students[i].name}.jpg`, photo, students[i].id);
  }
  await call(url, headers, `${BASE}/task/submit`, { json: { taskId: essay.id } });

  // The next quiz: its sheet printed for the other class, nothing uploaded yet.
  const next = await call<{ sheetId: string }>(url, headers, `${BASE}/sheet/create`, {
    json: {
      title: '七年级数学 第三章 整式及其加减 课堂练习',
      paper: 'A4',
      identity: 'roster',
      classId: nextClass.id,
      sections: [{ kind: 'objective', title: '一、选择题（每题10分）', items: Array.from({ length: 10 }, (_, i) => ({ no: i + 1, type: 'single', options: 4 })) }],
    },
  });
  await call(url, headers, `${BASE}/task/create`, {
    json: {
      type: 3,
      title: '七年级数学 第三章 整式及其加减 课堂练习批改',
      classId: nextClass.id,
      sheetId: next.sheetId,
      answerKey: { items: Object.fromEntries(['C', 'A', 'D', 'B', 'B', 'C', 'A', 'D', 'C', 'B'].map((answer, i) => [String(i + 1), { answer, points: 10 }])) },
    },
  });
}

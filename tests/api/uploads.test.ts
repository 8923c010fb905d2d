// Uploads that must not take the server down, and what comes back out of a stored file: import
// workbooks and scans that unpack to gigabytes are refused with a Chinese reason and leave nothing
// behind; names lose control and bidi characters; every file reply says `nosniff` and carries a
// clean Content-Disposition; a grading upload may only name a student the teacher teaches.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/db/query';
import { gradingFiles, students, teachers } from '../../server/db/schema';
import { createWorker } from '../../server/workers';
import { blackPng, hugeWorkbook, pdfBomb } from '../support/bombs';
import { XLSX, client, multipart, tempDataDir, workbook } from '../support/school';
import { createTestApp, type TestApp } from '../support/testApp';

const BASE = '/api/wrongbook/v1.0/correct';
const STUDENT_COLUMNS = ['姓名', '学号', '性别', '年级', '班级', '家长手机号'];
let t: TestApp;
let c: ReturnType<typeof client>;
let dataDir: string;
let schoolId: number;
/** 七(1)班 and 七(2)班, both taught by `teacher`. */
let taught: { id: number; className: string }[];

beforeAll(async () => {
  dataDir = tempDataDir();
  t = await createTestApp({ dataDir });
  c = client(t);
  schoolId = (await c.data('schooladmin', '/api/juno/personal/info')).schoolId;
  taught = await c.data('teacher', '/api/vesta/teaching/getTeachClass?leaderType=1');
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const studentCount = async () => (await t.database.db.select({ n: count() }).from(students).where(eq(students.schoolId, schoolId)))[0].n;
const teacherCount = async () => (await t.database.db.select({ n: count() }).from(teachers).where(eq(teachers.schoolId, schoolId)))[0].n;
/** Files kept in the content-addressed store (not counting uploads in progress): on disk, or in the database with FILE_STORE=postgres. */
async function storedFiles(dir = join(dataDir, 'files')): Promise<string[]> {
  if (t.app.config.fileStore === 'postgres') return (await rows<{ hash: string }>(t.database.db, sql`SELECT hash FROM stored_files`)).map((r) => r.hash);
  return onDisk(dir);
}
function onDisk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'tmp' ? [] : onDisk(join(dir, e.name))) : [e.name]));
}
/** Uploads spooled for a request and not yet removed. */
const spooled = () => readdirSync(join(dataDir, 'files', 'tmp'));
/** The spool is emptied once a reply is done, just after the client has it. */
async function spoolEmptied(): Promise<string[]> {
  for (let i = 0; i < 50 && spooled().length; i++) await new Promise((r) => setTimeout(r, 20));
  return spooled();
}
const gradingFileCount = async () => (await t.database.db.select({ n: count() }).from(gradingFiles))[0].n;

const importFile = (url: string, content: Buffer) => c.upload('schooladmin', url, multipart({}, { name: '导入.xlsx', content }));
const createTask = async (body: object) => (await c.done('teacher', `${BASE}/task/create`, body)).id as number;
const uploadScan = (taskId: number, name: string, content: Buffer, studentId?: number) =>
  c.upload('teacher', `${BASE}/task/upload`, multipart({ taskId, ...(studentId ? { studentId } : {}) }, { name, content }));

describe('import workbooks', () => {
  it('refuses the workbook of the incident (1.9 million cells, 50+ MB of XML in a few MB) and imports nothing', async () => {
    const bytes = hugeWorkbook(1_900_000);
    expect(bytes.length).toBeLessThan(16 * 1024 * 1024);
    const before = await studentCount();
    const res = await importFile('/api/vesta/student/importData', bytes);
    expect([res.statusCode, res.json().msg]).toEqual([400, '表格过大：解压后超过32MB，请删除多余的内容或分批导入']);
    expect(await studentCount()).toBe(before);
  });

  it('stops at the cell limit when the cells are small enough to pass the size limit, for students and teachers', async () => {
    const bytes = hugeWorkbook(1_900_000, { compact: true });
    const students = await importFile('/api/vesta/student/importData', bytes);
    expect([students.statusCode, students.json().msg]).toEqual([400, '表格过大：单元格超过20万个，请删除多余的行列或分批导入']);
    const before = await teacherCount();
    const teachersRes = await importFile('/api/vesta/teacher/importData', bytes);
    expect([teachersRes.statusCode, teachersRes.json().msg]).toEqual([400, '表格过大：单元格超过20万个，请删除多余的行列或分批导入']);
    expect(await teacherCount()).toBe(before);
  });

  it('still imports a workbook read as a stream, and sends a refused one back marked', async () => {
    const good = await workbook(STUDENT_COLUMNS, [['流式导入', 'STREAM-1', '女', '七年级', '七(1)班', '']]);
    const res = await importFile('/api/vesta/student/importData', good);
    expect(res.statusCode, res.body).toBe(200);
    const bad = await workbook(STUDENT_COLUMNS, [['', 'STREAM-2', '男', '七年级', '七(1)班', '']]);
    const refused = await importFile('/api/vesta/student/importData', bad);
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).toBe(XLSX);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    // Imports are read from a file spooled to disk, not from memory; none is left behind.
    expect(await spoolEmptied()).toEqual([]);
  });
});

describe('scans for grading', () => {
  let taskId: number;
  beforeAll(async () => {
    taskId = await createTask({ type: 2, title: '作文：炸弹', classId: taught[0].id });
  });

  it('refuses PDFs that unpack to gigabytes, storing nothing', async () => {
    const bombs = [
      // The incident: 1.6 GB behind a page image that claims a normal size.
      { bomb: await pdfBomb({ width: 2000, height: 2000, megabytes: 1600 }), msg: 'PDF 第 1 页：扫描图像数据异常（解压后远大于图像尺寸），请重新扫描后上传' },
      { bomb: await pdfBomb({ width: 40000, height: 40000, megabytes: 1600 }), msg: 'PDF 第 1 页：图片尺寸过大（40000×40000），请使用不超过5000万像素的照片或扫描件' },
      { bomb: await pdfBomb({ width: 200, height: 200, megabytes: 1600, objectStream: true }), msg: 'PDF 文件内容异常（解压后过大），无法读取' },
    ];
    for (const { bomb, msg } of bombs) {
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const res = await uploadScan(taskId, '扫描.pdf', bomb);
      expect([res.statusCode, res.json().msg]).toEqual([400, msg]);
    }
    expect(await gradingFileCount()).toBe(0);
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses PDFs whose structure is broken with a Chinese 400, storing nothing', async () => {
    const pdf = (objects: string, trailer = '<</Root 1 0 R>>') => Buffer.from(`%PDF-1.4\n${objects}\ntrailer${trailer}\n%%EOF\n`);
    const pages = (kids: string, page = '') => pdf(`1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids${kids}/Count 1>>endobj\n${page}`);
    const broken = {
      'no catalog': pdf('1 0 obj<<>>endobj', '<<>>'),
      'a number as the catalog': pdf('1 0 obj 5 endobj'),
      'a catalog without pages': pdf('1 0 obj<</Type/Catalog>>endobj'),
      'kids that are not a list': pages('7'),
      'a page tree that loops': pages('[2 0 R]'),
      'a number as resources': pages('[3 0 R]', '3 0 obj<</Type/Page/Parent 2 0 R/Resources 9>>endobj'),
      'a header and nothing else': Buffer.from('%PDF-1.4\n'),
    };
    for (const [shape, bytes] of Object.entries(broken)) {
      const res = await uploadScan(taskId, '扫描.pdf', bytes);
      expect([res.statusCode, res.json().msg], shape).toEqual([400, '无法读取 PDF 文件，文件可能已损坏或加密']);
    }
    expect(await gradingFileCount()).toBe(0);
    expect(await storedFiles()).toEqual([]);
  });

  it('refuses a 16000×16000 PNG with the reason', async () => {
    const png = blackPng(16000, 16000);
    expect(png.length).toBeLessThan(1024 * 1024);
    const res = await uploadScan(taskId, '超大照片.png', png);
    expect([res.statusCode, res.json().msg]).toEqual([400, '图片尺寸过大（16000×16000），请使用不超过5000万像素的照片或扫描件']);
    expect(await gradingFileCount()).toBe(0);
    expect(await storedFiles()).toEqual([]);
  });

  it('a photo too large that reaches grading anyway (stored before the check) fails with the reason', async () => {
    const pending = await t.app.files.write(Readable.from([blackPng(16000, 16000)]));
    await pending.commit();
    const [task] = await rows<{ tenantId: number }>(t.database.db, sql`SELECT tenant_id AS "tenantId" FROM grading_tasks WHERE id = ${taskId}`);
    await t.database.db.insert(gradingFiles).values({ tenantId: task.tenantId, taskId, fileHash: pending.hash, fileName: '旧照片.png', mime: 'image/png', size: pending.size });
    await c.done('teacher', `${BASE}/task/submit`, { taskId });
    const worker = createWorker(t.database.db, t.app.config);
    while (await worker.runOnce());
    const detail = await c.data('teacher', `${BASE}/task/detail?taskId=${taskId}`);
    expect(detail.files).toEqual([expect.objectContaining({ fileName: '旧照片.png', recognitionStatus: 4, error: '图片尺寸过大（16000×16000），请使用不超过5000万像素的照片或扫描件' })]);
    expect(detail.task.status).toBe(7);
  });
});

describe('file names and file replies', () => {
  const photo = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } }).png().toBuffer();

  it('keeps a PNG sent as x.html as x.png: the name carries the type its bytes are', async () => {
    const taskId = await createTask({ type: 2, title: '作文：扩展名' });
    const res = await uploadScan(taskId, '作文.html', await photo());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.fileName).toBe('作文.png');
    const detail = await c.data('teacher', `${BASE}/task/detail?taskId=${taskId}`);
    const view = await c.get('teacher', `${BASE}/file/view?fileId=${detail.files[0].id}`);
    expect(view.headers['content-type']).toBe('image/png');
    expect(view.headers['content-disposition']).toContain(encodeURIComponent('作文.png'));
  });

  it('stores a grading upload without control or bidi characters and views it inline with nosniff', async () => {
    const taskId = await createTask({ type: 2, title: '作文：文件名' });
    // "作业\u202Egnp.exe" shows as "作业exe.png" in a list that honours the override.
    const res = await uploadScan(taskId, '作业\u202Egnp.exe\u200B\u0007.png', await photo());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.fileName).toBe('作业gnp.exe.png');
    const detail = await c.data('teacher', `${BASE}/task/detail?taskId=${taskId}`);
    expect(detail.files[0].fileName).toBe('作业gnp.exe.png');
    const view = await c.get('teacher', `${BASE}/file/view?fileId=${detail.files[0].id}`);
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toBe('image/png');
    expect(view.headers['x-content-type-options']).toBe('nosniff');
    expect(view.headers['content-disposition']).toBe(`inline; filename="__gnp.exe.png"; filename*=UTF-8''${encodeURIComponent('作业gnp.exe.png')}`);
  });

  it('stores a resource name the same way and downloads it as an attachment with nosniff', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n% names\n');
    const res = await c.upload('teacher', '/api/vesta/resource/upload', multipart({ type: '教案' }, { name: '教案\u202Efdp.exe\u2066.pdf', content: pdf }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.fileName).toBe('教案fdp.exe.pdf');
    const download = await c.get('teacher', `/api/vesta/resource/download?resourceId=${res.json().data.id}`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="__fdp.exe.pdf"; filename*=UTF-8''${encodeURIComponent('教案fdp.exe.pdf')}`);
  });

  it('every download says nosniff and names its file in a clean attachment header', async () => {
    const sheet = await c.done('teacher', `${BASE}/sheet/create`, {
      title: '周测"一";卷',
      paper: 'A4',
      identity: 'anonymous',
      digits: 8,
      sections: [{ kind: 'objective', title: '选择题', items: [{ no: 1, type: 'single', options: 4 }] }],
    });
    const downloads = [
      { url: `${BASE}/sheet/pdf?sheetId=${sheet.sheetId}`, user: 'teacher', name: '答题卡_周测"一";卷.pdf' },
      { url: '/api/vesta/student/importTemplate', user: 'schooladmin', name: '学生导入模板.xlsx' },
      { url: '/api/vesta/teacher/importTemplate', user: 'schooladmin', name: '教师导入模板.xlsx' },
      { url: '/api/vesta/student/exportStudentData', user: 'schooladmin', name: /^学生数据_\d{14}\.xlsx$/ },
    ];
    for (const d of downloads) {
      const res = await c.get(d.user, d.url);
      expect(res.statusCode, d.url).toBe(200);
      expect(res.headers['x-content-type-options'], d.url).toBe('nosniff');
      const header = res.headers['content-disposition'] as string;
      const [, fallback, encoded] = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9%._~!-]+)$/.exec(header) ?? [];
      expect(fallback, `${d.url}: ${header}`).toBeDefined();
      expect(fallback).not.toMatch(/["\\;]/);
      expect(decodeURIComponent(encoded)).toMatch(d.name);
    }
  });
});

describe('printable sheets', () => {
  it('are rendered off the event loop and still explain in Chinese what cannot be printed', async () => {
    const sheet = await c.done('teacher', `${BASE}/sheet/create`, {
      title: '周测😀',
      paper: 'A4',
      identity: 'anonymous',
      digits: 8,
      sections: [{ kind: 'objective', title: '选择题', items: [{ no: 1, type: 'single', options: 4 }] }],
    });
    const res = await c.get('teacher', `${BASE}/sheet/pdf?sheetId=${sheet.sheetId}`);
    expect([res.statusCode, res.json().msg]).toEqual([422, '字体缺少以下字符，无法打印：😀']);
  });
});

describe('who a grading upload may name', () => {
  it("accepts a student of the task's class and refuses others of the school, storing nothing", async () => {
    const [first, second] = taught;
    const taskId = await createTask({ type: 2, title: '作文：学生', classId: first.id });
    const studentOf = async (where: ReturnType<typeof sql>) =>
      (await rows<{ id: number }>(t.database.db, sql`SELECT id FROM students WHERE school_id = ${schoolId} AND ${where} ORDER BY id LIMIT 1`))[0].id;
    const inClass = await studentOf(sql`class_id = ${first.id}`);
    const otherTaught = await studentOf(sql`class_id = ${second.id}`);
    const notTaught = await studentOf(sql`class_id NOT IN (${first.id}, ${second.id})`);
    const img = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } }).jpeg().toBuffer();
    const before = await gradingFileCount();

    const stranger = await uploadScan(taskId, '作文.jpg', img, notTaught);
    expect([stranger.statusCode, stranger.json().msg]).toEqual([404, '学生不存在或不在您任教的班级']);
    const otherClass = await uploadScan(taskId, '作文.jpg', img, otherTaught);
    expect([otherClass.statusCode, otherClass.json().msg]).toEqual([400, '该学生不在本任务的班级中']);
    const garbled = await c.upload('teacher', `${BASE}/task/upload`, multipart({ taskId, studentId: '7abc' }, { name: '作文.jpg', content: img }));
    expect([garbled.statusCode, garbled.json().msg]).toEqual([400, '学生格式不正确']);
    expect(await gradingFileCount()).toBe(before);

    expect((await uploadScan(taskId, '作文.jpg', img, inClass)).statusCode).toBe(200);
    // Without a class on the task, any class the teacher teaches will do; still not the others.
    const open = await createTask({ type: 2, title: '作文：不限班级' });
    expect((await uploadScan(open, '作文.jpg', img, otherTaught)).statusCode).toBe(200);
    expect((await uploadScan(open, '作文.jpg', img, notTaught)).statusCode).toBe(404);
    const detail = await c.data('teacher', `${BASE}/task/detail?taskId=${open}`);
    expect(detail.files.map((f: { studentId: number }) => f.studentId)).toEqual([otherTaught]);
  });
});

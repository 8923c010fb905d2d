// Students: list filters and sorting, CRUD validation, binding, Excel import/export; tenant and role checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, inArray } from 'drizzle-orm';
import { students } from '../../server/db/schema';
import { createTestApp, type TestApp } from '../support/testApp';
import { classSize, studentCountsDrift, taught } from '../support/content';
import { XLSX, client, multipart, readRows, workbook, zip } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let schoolId: number;
let classes: { id: number; className: string; gradeId: number; gradeName: string }[];
let foreignStudentId: number;
let foreignClassId: number;

const studentCount = async () => (await t.database.db.select({ n: count() }).from(students).where(eq(students.schoolId, schoolId)))[0].n;

beforeAll(async () => {
  t = await createTestApp();
  c = client(t);
  schoolId = (await c.data('schooladmin', '/api/juno/personal/info')).schoolId;
  const tree = await c.data('schooladmin', '/api/vesta/class/treeClassBySchool');
  classes = tree.flatMap((g: { children: typeof classes }) => g.children);
  const other = await c.data('schooladmin2', '/api/vesta/student/page?size=1');
  foreignStudentId = other.records[0].id;
  foreignClassId = other.records[0].classId;
});
afterAll(() => t.close());

describe('student page', () => {
  it('pages the whole school for an admin, sorted by student number', async () => {
    const p = await c.data('schooladmin', '/api/vesta/student/page?current=2&size=20');
    expect(p).toMatchObject({ total: 480, current: 2, size: 20, pages: 24 });
    expect(p.records).toHaveLength(20);
    const nos = p.records.map((s: { studentNo: string }) => s.studentNo);
    expect(nos).toEqual([...nos].sort());
    expect(p.records[0]).toEqual({
      id: expect.any(Number),
      studentId: p.records[0].id,
      name: expect.any(String),
      studentNo: expect.any(String),
      gender: expect.any(Number),
      parentPhone: expect.stringMatching(/^1\d{10}$/),
      classId: expect.any(Number),
      className: expect.any(String),
      gradeId: expect.any(Number),
      gradeName: expect.any(String),
      status: 0,
      bindingStatus: expect.any(Number),
      graduatedYear: null,
      birthDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      leftOn: null,
      createdAt: expect.any(String),
      // Whether a terminal PIN is set (the demo's students all have one), never the PIN.
      terminalPin: 1,
    });
  });

  it('filters by grade, class, keyword, status and binding status, and sorts', async () => {
    const cls = classes[0];
    expect((await c.data('schooladmin', `/api/vesta/student/page?gradeId=${cls.gradeId}`)).total).toBe(160);
    const inClass = await c.data('schooladmin', `/api/vesta/student/page?classId=${cls.id}&size=100&sort=name&order=desc`);
    expect(inClass.total).toBe(await classSize(t, cls.id));
    const names = inClass.records.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort().reverse());
    const someone = inClass.records[5];
    const byNo = await c.data('schooladmin', `/api/vesta/student/page?keyword=${someone.studentNo}`);
    expect(byNo.records.map((s: { id: number }) => s.id)).toEqual([someone.id]);
    const byName = await c.data('schooladmin', `/api/vesta/student/page?keyword=${encodeURIComponent(someone.name)}`);
    expect(byName.records.map((s: { id: number }) => s.id)).toContain(someone.id);
    const bound = (await c.data('schooladmin', '/api/vesta/student/page?bindingStatus=1')).total;
    const unbound = (await c.data('schooladmin', '/api/vesta/student/page?bindingStatus=0')).total;
    expect(bound + unbound).toBe(480);
    expect((await c.data('schooladmin', '/api/vesta/student/page?status=1')).total).toBe(0);
  });

  it('finds by any part of a name or number: one character, a pair inside the name, digits inside the number', async () => {
    // Recounted from the school's students with plain string matching, beside the list's index.
    const all = await t.database.db.select({ id: students.id, name: students.name, studentNo: students.studentNo }).from(students).where(eq(students.schoolId, schoolId));
    const someone = all.find((s) => Array.from(s.name).length >= 3)!;
    const chars = Array.from(someone.name);
    const keywords = [chars[chars.length - 1], chars.slice(1).join(''), someone.studentNo.slice(2, 6), chars[0]];
    for (const keyword of keywords) {
      const expected = all.filter((s) => s.name.includes(keyword) || s.studentNo.includes(keyword)).map((s) => s.id).sort((a, b) => a - b);
      const found = await c.data('schooladmin', `/api/vesta/student/page?keyword=${encodeURIComponent(keyword)}&size=500`);
      expect(found.total, keyword).toBe(expected.length);
      expect(found.records.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b), keyword).toEqual(expected);
    }
  });

  it('takes a keyword as plain text: quotes, backslashes, % and _ match only themselves', async () => {
    const cls = classes[1];
    const names = ["欧'尼尔", '百分%之百', '下_划线', '反斜\\杠'];
    const ids: number[] = [];
    for (const [i, name] of names.entries()) ids.push((await c.done('schooladmin', '/api/vesta/student/add', { name, studentNo: `Q-${i}`, classId: cls.id })).id);
    try {
      for (const [i, keyword] of ["'尼", '%', '_', '\\'].entries()) {
        const found = await c.data('schooladmin', `/api/vesta/student/page?keyword=${encodeURIComponent(keyword)}`);
        expect(found.records.map((s: { id: number }) => s.id), keyword).toEqual([ids[i]]);
        expect(found.total).toBe(1);
      }
      // The same search twice (the second from the prepared statement) answers the same.
      const again = await c.data('schooladmin', `/api/vesta/student/page?keyword=${encodeURIComponent("'尼")}`);
      expect(again.records[0]).toMatchObject({ id: ids[0], name: "欧'尼尔", className: cls.className, studentNo: 'Q-0' });
    } finally {
      for (const id of ids) await c.done('schooladmin', '/api/vesta/student/remove', { studentId: id });
    }
  });

  it('answers a page past the end with no records and the total', async () => {
    expect(await c.data('schooladmin', '/api/vesta/student/page?current=100&size=20')).toEqual({ records: [], total: 480, current: 100, size: 20, pages: 24 });
  });

  it('limits a teacher to the classes they teach', async () => {
    const mine = await taught(t, 'teacher');
    const p = await c.data('teacher', '/api/vesta/student/page?size=100');
    const rest = await c.data('teacher', '/api/vesta/student/page?size=100&current=2');
    const inMine = await t.database.db.select({ n: count() }).from(students).where(inArray(students.classId, mine.classIds));
    expect(p.total).toBe(inMine[0].n);
    const seen = [...p.records, ...rest.records].map((s: { className: string }) => s.className);
    expect(seen).toHaveLength(inMine[0].n);
    expect(new Set(seen)).toEqual(new Set(mine.classes));
    const notMine = classes.find((x) => !mine.classIds.includes(x.id))!;
    expect((await c.get('teacher', `/api/vesta/student/page?classId=${notMine.id}`)).statusCode).toBe(404);
  });

  it('refuses other roles, bad filters and foreign ids', async () => {
    expect((await c.get('parttime', '/api/vesta/student/page')).statusCode).toBe(403);
    expect((await c.get('partner1', '/api/vesta/student/page')).statusCode).toBe(403);
    const badSort = await c.get('schooladmin', '/api/vesta/student/page?sort=password');
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().msg).toBe('排序字段取值不正确');
    const badStatus = await c.get('schooladmin', '/api/vesta/student/page?status=5');
    expect(badStatus.json().msg).toBe('状态取值不正确');
    expect((await c.get('schooladmin', `/api/vesta/student/page?classId=${foreignClassId}`)).statusCode).toBe(404);
  });
});

describe('student add, update, remove', () => {
  it('adds, updates and removes a student', async () => {
    const cls = classes[1];
    const added = await c.done('schooladmin', '/api/vesta/student/add', { name: '欧阳玥', studentNo: 'S-0001', gender: 2, classId: cls.id, parentPhone: '13912345678' });
    await c.done('schooladmin', '/api/vesta/student/update', { studentId: added.id, name: '欧阳昇', gender: 1, classId: classes[2].id });
    const found = await c.data('schooladmin', '/api/vesta/student/page?keyword=S-0001');
    expect(found.records[0]).toMatchObject({ name: '欧阳昇', gender: 1, classId: classes[2].id, parentPhone: '13912345678' });
    await c.done('schooladmin', '/api/vesta/student/remove', { studentId: added.id });
    expect((await c.data('schooladmin', '/api/vesta/student/page?keyword=S-0001')).total).toBe(0);
  });

  it('names the field in every validation message', async () => {
    const cls = classes[1];
    const cases: [object, number, string][] = [
      [{ name: ' ', studentNo: 'X1', classId: cls.id }, 400, '姓名不能为空'],
      [{ name: '名'.repeat(51), studentNo: 'X1', classId: cls.id }, 400, '姓名长度不能超过50个字符'],
      [{ name: '张三', classId: cls.id }, 400, '学号不能为空'],
      [{ name: '张三', studentNo: '学号一', classId: cls.id }, 400, '学号格式不正确'],
      [{ name: '张三', studentNo: 'X1', gender: 3, classId: cls.id }, 400, '性别取值不正确'],
      [{ name: '张三', studentNo: 'X1', classId: cls.id, parentPhone: '12345678901' }, 400, '家长手机号格式不正确'],
      [{ name: '张三', studentNo: 'X1' }, 400, '班级不能为空'],
      [{ name: '张三', studentNo: 'X1', classId: foreignClassId }, 404, '班级不存在'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await c.post('schooladmin', '/api/vesta/student/add', body);
      expect([res.statusCode, res.json().msg], JSON.stringify(body)).toEqual([status, msg]);
    }
  });

  it('refuses a student number already used in the school (409), allows it in another school', async () => {
    const taken = (await c.data('schooladmin', '/api/vesta/student/page?size=1')).records[0].studentNo;
    const res = await c.post('schooladmin', '/api/vesta/student/add', { name: '李四', studentNo: taken, classId: classes[0].id });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(`学号${taken}已存在`);
    // Named on the field, for the form to show under 学号.
    expect(res.json().data).toEqual({ errors: { studentNo: `学号${taken}已存在` } });
    const other = await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool');
    expect((await c.post('schooladmin2', '/api/vesta/student/add', { name: '李四', studentNo: taken, classId: other[0].children[0].id })).statusCode).toBe(200);
    const second = (await c.data('schooladmin', '/api/vesta/student/page?size=2')).records[1];
    const upd = await c.post('schooladmin', '/api/vesta/student/update', { studentId: second.id, studentNo: taken });
    expect(upd.statusCode).toBe(409);
  });

  it('bulk-deletes with studentIds, all or nothing', async () => {
    const a = await c.done('schooladmin', '/api/vesta/student/add', { name: '甲', studentNo: 'DEL-1', classId: classes[0].id });
    const b = await c.done('schooladmin', '/api/vesta/student/add', { name: '乙', studentNo: 'DEL-2', classId: classes[0].id });
    const mixed = await c.post('schooladmin', '/api/vesta/student/remove', { studentIds: [a.id, foreignStudentId] });
    expect(mixed.statusCode).toBe(404);
    expect((await c.data('schooladmin', '/api/vesta/student/page?keyword=DEL-')).total).toBe(2);
    expect((await c.done('schooladmin', '/api/vesta/student/remove', { studentIds: [a.id, b.id] })).count).toBe(2);
    expect((await c.data('schooladmin', '/api/vesta/student/page?keyword=DEL-')).total).toBe(0);
    expect((await c.post('schooladmin', '/api/vesta/student/remove', {})).json().msg).toBe('学生不能为空');
  });

  it("refuses teachers and another tenant's students", async () => {
    expect((await c.post('teacher', '/api/vesta/student/add', { name: '张三', studentNo: 'T1', classId: classes[0].id })).statusCode).toBe(403);
    expect((await c.post('teacher', '/api/vesta/student/remove', { studentId: foreignStudentId })).statusCode).toBe(403);
    expect((await c.post('schooladmin', '/api/vesta/student/update', { studentId: foreignStudentId, name: '改名' })).statusCode).toBe(404);
    // A field update does not know is refused, not silently dropped (tenantId here).
    const smuggled = await c.post('schooladmin', '/api/vesta/student/update', { studentId: foreignStudentId, name: '改名', tenantId: 1 });
    expect(smuggled.statusCode).toBe(400);
    expect(smuggled.json().msg).toBe('请求包含不支持的参数');
    expect((await c.post('schooladmin', '/api/vesta/student/remove', { studentId: foreignStudentId })).statusCode).toBe(404);
  });
});

describe('batchEnableStudentOrg', () => {
  it('sets the binding status of a batch', async () => {
    const unbound = await c.data('schooladmin', '/api/vesta/student/page?bindingStatus=0&size=3');
    const ids = unbound.records.map((s: { id: number }) => s.id);
    const res = await c.done('schooladmin', '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds: ids });
    expect(res).toEqual({ count: 3, bindingStatus: 1 });
    expect((await c.data('schooladmin', '/api/vesta/student/page?bindingStatus=0')).total).toBe(unbound.total - 3);
    await c.done('schooladmin', '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds: ids, bindingStatus: 0 });
    expect((await c.data('schooladmin', '/api/vesta/student/page?bindingStatus=0')).total).toBe(unbound.total);
  });

  it('refuses foreign students and teachers', async () => {
    expect((await c.post('schooladmin', '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds: [foreignStudentId] })).statusCode).toBe(404);
    expect((await c.post('teacher', '/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds: [1] })).statusCode).toBe(403);
  });
});

describe('student import', () => {
  const importFile = (bytes: Buffer, name = '学生.xlsx') =>
    c.upload('schooladmin', '/api/vesta/student/importData', multipart({}, { name, content: bytes, type: XLSX }));

  it('template → 120 rows filled with exceljs → import → the page shows them; re-import adds nothing', async () => {
    const template = await c.get('schooladmin', '/api/vesta/student/importTemplate');
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-type']).toBe(XLSX);
    expect(template.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('学生导入模板.xlsx')}`);
    const header = (await readRows(template.rawPayload))[0];
    expect(header).toEqual(['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号', '出生日期', '终端PIN']);

    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    for (let i = 1; i <= 120; i++) {
      const cls = classes[i % 4];
      sheet.addRow([`导入学生${i}`, `IMP${String(i).padStart(4, '0')}`, i % 2 ? '男' : '女', cls.gradeName, cls.className, `1380013${String(i).padStart(4, '0')}`]);
    }
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    const before = await studentCount();
    const res = await importFile(filled);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-import-result']).toBe('success');
    expect(res.json().data).toEqual({ total: 120, created: 120, updated: 0, skipped: 0 });
    expect(await studentCount()).toBe(before + 120);
    const listed = await c.data('schooladmin', '/api/vesta/student/page?keyword=IMP&size=200');
    expect(listed.total).toBe(120);
    expect(listed.records[0]).toMatchObject({ name: '导入学生1', studentNo: 'IMP0001', gender: 1, className: classes[1].className, parentPhone: '13800130001' });

    const again = await importFile(filled);
    expect(again.json().data).toEqual({ total: 120, created: 0, updated: 120, skipped: 0 });
    expect(await studentCount()).toBe(before + 120);

    // 是否更新已经存在的数据 — 否: the same numbers under another name change nothing; 是: they do.
    const first = sheet.getRow(2);
    expect(first.getCell(2).value).toBe('IMP0001');
    first.getCell(1).value = '改名学生';
    const renamed = Buffer.from(await wb.xlsx.writeBuffer());
    const reimport = (update: 0 | 1) => c.upload('schooladmin', `/api/vesta/student/importData?update=${update}`, multipart({}, { name: '学生.xlsx', content: renamed, type: XLSX }));
    const nameOfFirst = async () => (await c.data('schooladmin', '/api/vesta/student/page?keyword=IMP0001')).records[0].name;
    const kept = await reimport(0);
    expect(kept.json().data).toEqual({ total: 120, created: 0, updated: 0, skipped: 120 });
    expect(kept.json().msg).toBe('导入成功：新增0名，跳过已存在的120名（未更新）');
    expect(await nameOfFirst()).toBe('导入学生1');
    const written = await reimport(1);
    expect(written.json().data).toEqual({ total: 120, created: 0, updated: 120, skipped: 0 });
    expect(await nameOfFirst()).toBe('改名学生');
    const bad = await c.upload('schooladmin', '/api/vesta/student/importData?update=yes', multipart({}, { name: '学生.xlsx', content: renamed, type: XLSX }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('是否更新已有数据');
  });

  it('writes nothing when any row is bad, and returns the workbook with a reason on each bad row', async () => {
    const cls = classes[0];
    const bytes = await workbook(
      ['姓名*', '学号*', '性别', '年级*', '班级*', '家长手机号'],
      [
        ['好学生', 'OK-1', '男', cls.gradeName, cls.className, ''],
        ['', 'BAD-1', '男', cls.gradeName, cls.className, ''],
        ['坏手机', 'BAD-2', '女', cls.gradeName, cls.className, '123'],
        ['无班级', 'BAD-3', '男', '七年级', '七(99)班', ''],
        ['重复', 'OK-1', '未知', cls.gradeName, cls.className, ''],
      ],
    );
    const before = await studentCount();
    const res = await importFile(bytes);
    expect(res.statusCode).toBe(422);
    expect(res.headers['x-import-result']).toBe('failed');
    expect(res.headers['x-import-error-count']).toBe('4');
    // The same rows and reasons for the import dialog to list, in sheet order.
    expect(JSON.parse(decodeURIComponent(String(res.headers['x-import-errors'])))).toEqual([
      [3, '姓名不能为空'],
      [4, '家长手机号格式不正确'],
      [5, '本校没有七年级七(99)班'],
      [6, '学号与第2行重复；性别只能填写男或女'],
    ]);
    expect(res.headers['content-type']).toBe(XLSX);
    const back = await readRows(res.rawPayload);
    expect(back[0][6]).toBe('错误原因');
    expect(back[1][6] ?? '').toBe('');
    expect(back[2][6]).toBe('姓名不能为空');
    expect(back[3][6]).toBe('家长手机号格式不正确');
    expect(back[4][6]).toBe('本校没有七年级七(99)班');
    expect(back[5][6]).toBe('学号与第2行重复；性别只能填写男或女');
    expect(await studentCount()).toBe(before);
    expect((await c.data('schooladmin', '/api/vesta/student/page?keyword=OK-1')).total).toBe(0);
  });

  it('refuses files that are not workbooks, zip bombs and too many rows', async () => {
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(1000)]);
    const notXlsx = await importFile(exe, 'students.xlsx');
    expect([notXlsx.statusCode, notXlsx.json().msg]).toEqual([400, '请上传 Excel 文件（.xlsx）']);

    const hugeSheet = Buffer.alloc(80 * 1024 * 1024, 0x20);
    const honest = zip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }, { name: 'xl/worksheets/sheet1.xml', data: hugeSheet }]);
    const lying = zip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }, { name: 'xl/worksheets/sheet1.xml', data: hugeSheet, declaredSize: 1000 }]);
    expect(honest.length).toBeLessThan(1024 * 1024);
    const tooBig = await importFile(honest);
    expect([tooBig.statusCode, tooBig.json().msg]).toEqual([400, '表格过大：解压后超过32MB，请删除多余的内容或分批导入']);
    const bomb = await importFile(lying);
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().msg).toContain('文件内容异常');

    const rowsXml = `<worksheet><sheetData>${Array.from({ length: 5002 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>x</t></is></c></row>`).join('')}</sheetData></worksheet>`;
    const tooMany = zip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }, { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(rowsXml) }]);
    const res = await importFile(tooMany);
    expect([res.statusCode, res.json().msg]).toEqual([400, '单次最多导入5000条数据，请分批导入']);

    const wrongHeader = await importFile(await workbook(['名字', '编号'], [['a', 'b']]));
    expect([wrongHeader.statusCode, wrongHeader.json().msg]).toEqual([400, '导入模板不正确，缺少列：姓名、学号、年级、班级']);
    const noFile = await c.post('schooladmin', '/api/vesta/student/importData', {});
    expect([noFile.statusCode, noFile.json().msg]).toEqual([400, '请选择要上传的文件']);
  });

  it('is for school admins only', async () => {
    const bytes = await workbook(['姓名', '学号', '年级', '班级'], [['a', 'b', '七年级', '七(1)班']]);
    const res = await c.upload('teacher', '/api/vesta/student/importData', multipart({}, { name: 'a.xlsx', content: bytes }));
    expect(res.statusCode).toBe(403);
    expect((await c.get('teacher', '/api/vesta/student/importTemplate')).statusCode).toBe(403);
  });
});

describe('student export', () => {
  it('exports the filtered rows as a real xlsx with Chinese headers', async () => {
    const cls = classes[0];
    const res = await c.get('schooladmin', `/api/vesta/student/exportStudentData?classId=${cls.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(res.headers['content-disposition'] as string)).toMatch(/学生数据_\d{14}\.xlsx$/);
    const sheet = await readRows(res.rawPayload);
    expect(sheet[0]).toEqual(['学号', '姓名', '性别', '年级', '班级', '家长手机号', '状态', '绑定状态', '毕业年份', '出生日期']);
    const listed = await c.data('schooladmin', `/api/vesta/student/page?classId=${cls.id}&size=500`);
    // 40 seeded plus the students imported above.
    expect(sheet).toHaveLength(listed.total + 1);
    expect(listed.total).toBeGreaterThanOrEqual(40);
    expect(sheet.slice(1).map((r) => r[0])).toEqual(listed.records.map((s: { studentNo: string }) => s.studentNo));
    expect(sheet[1].slice(3, 5)).toEqual([cls.gradeName, cls.className]);
    expect(['男', '女']).toContain(sheet[1][2]);
    expect(sheet[1][6]).toBe('在读');
  });

  it("gives a teacher their own classes only, and refuses other roles", async () => {
    const res = await c.get('teacher', '/api/vesta/student/exportStudentData');
    expect(res.statusCode).toBe(200);
    const own = await c.data('teacher', '/api/vesta/student/page');
    expect(await readRows(res.rawPayload)).toHaveLength(own.total + 1);
    expect((await c.get('parttime', '/api/vesta/student/exportStudentData')).statusCode).toBe(403);
    expect((await c.get('schooladmin', `/api/vesta/student/exportStudentData?classId=${foreignClassId}`)).statusCode).toBe(404);
  });
});

describe('student counts', () => {
  it('follow every write above: adds, edits, moves, binding, deletes and imports leave them equal to a recount', async () => {
    expect(await studentCountsDrift(t)).toEqual([]);
    // The list's totals read them: a filter's total is the number of rows it pages through.
    const cls = classes[1];
    const p = await c.data('schooladmin', `/api/vesta/student/page?classId=${cls.id}&status=0&size=500`);
    expect(p.total).toBe(p.records.length);
    expect(p.total).toBe(await classSize(t, cls.id));
  });
});

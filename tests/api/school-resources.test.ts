// School resources: upload (types by magic bytes, size limit), list, preview, download, delete;
// the content-addressed store; tenant and role checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/testApp';
import { client, multipart, tempDataDir, zip } from '../support/school';

let t: TestApp;
let c: ReturnType<typeof client>;
let dataDir: string;
let gradeId: number;
let subjectId: number;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really pixels')]);
const DOCX = zip([
  { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
  { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
]);
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(512)]);

const upload = (user: string, name: string, content: Buffer, fields: Record<string, string | number> = { type: '教案' }, fileFirst = false) =>
  c.upload(user, '/api/vesta/resource/upload', multipart(fields, { name, content }, fileFirst));
/** Whether the bytes are kept in the store (on disk, or in the database with FILE_STORE=postgres). */
const stored = (content: Buffer) => t.app.files.exists(createHash('sha256').update(content).digest('hex'));

beforeAll(async () => {
  dataDir = tempDataDir();
  t = await createTestApp({ dataDir });
  c = client(t);
  const info = await c.data('teacher', '/api/juno/personal/info');
  gradeId = info.schoolGrade[0].gradeId;
  subjectId = info.courses[0].subjectId;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('upload', () => {
  it('stores a PDF by content hash and lists it with its grade and subject', async () => {
    const res = await upload('teacher', '一元一次方程教案.pdf', PDF, { type: '教案', gradeId, subjectId, title: '方程教案' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ title: '方程教案', type: '教案', fileName: '一元一次方程教案.pdf', mime: 'application/pdf', size: PDF.length });
    expect(await stored(PDF)).toBe(true);
    const list = await c.data('teacher', `/api/vesta/resource/page?gradeId=${gradeId}&subjectId=${subjectId}&type=${encodeURIComponent('教案')}`);
    expect(list.total).toBe(1);
    expect(list.records[0]).toMatchObject({ title: '方程教案', gradeName: '七年级', subjectName: '数学', uploaderName: '陈静', canDelete: true, previewable: true });
  });

  it('decides the type by magic bytes: a PNG named .pdf is stored as PNG, fields may follow the file', async () => {
    const res = await upload('schooladmin', 'photo.pdf', PNG, { type: '其他' }, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ fileName: 'photo.png', mime: 'image/png', title: 'photo' });
  });

  it('accepts office documents (download only) and part-time staff', async () => {
    const res = await upload('parttime', '试卷.docx', DOCX, { type: '试卷' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.mime).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('refuses a renamed .exe, a plain zip posing as .docx, and an empty file, storing nothing', async () => {
    const before = readdirSync(join(dataDir, 'files', 'tmp'));
    const exe = await upload('teacher', '试卷.pdf', EXE);
    expect(exe.statusCode).toBe(415);
    expect(exe.json().msg).toMatch(/^不支持的文件类型，仅支持PDF/);
    const plainZip = await upload('teacher', 'a.docx', zip([{ name: 'virus.exe', data: EXE }]));
    expect(plainZip.statusCode).toBe(415);
    const empty = await upload('teacher', 'a.pdf', Buffer.alloc(0));
    expect([empty.statusCode, empty.json().msg]).toEqual([400, '文件内容为空']);
    expect(await stored(EXE)).toBe(false);
    expect(readdirSync(join(dataDir, 'files', 'tmp'))).toEqual(before);
  });

  it('refuses files over 50 MB with 413', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(50 * 1024 * 1024)]);
    const res = await upload('teacher', 'big.pdf', big);
    expect(res.statusCode).toBe(413);
    expect(res.json().msg).toBe('文件过大，单个文件不能超过50MB');
    expect(await stored(big)).toBe(false);
  });

  it('validates the fields with Chinese messages', async () => {
    const noType = await upload('teacher', 'a.pdf', PDF, {});
    expect([noType.statusCode, noType.json().msg]).toEqual([400, '类型只能是教案、试卷、课件、其他']);
    const longTitle = await upload('teacher', 'a.pdf', PDF, { type: '课件', title: '标'.repeat(51) });
    expect([longTitle.statusCode, longTitle.json().msg]).toEqual([400, '标题长度不能超过50个字符']);
    const noFile = await c.upload('teacher', '/api/vesta/resource/upload', multipart({ type: '课件' }));
    expect([noFile.statusCode, noFile.json().msg]).toEqual([400, '请选择要上传的文件']);
    const json = await c.post('teacher', '/api/vesta/resource/upload', { type: '课件' });
    expect(json.statusCode).toBe(400);
  });

  it("refuses another tenant's grade and roles without resources", async () => {
    const other = await c.data('schooladmin2', '/api/vesta/class/treeClassBySchool');
    expect((await upload('teacher', 'a.pdf', PDF, { type: '教案', gradeId: other[0].gradeId })).statusCode).toBe(404);
    expect((await upload('psych', 'a.pdf', PDF)).statusCode).toBe(403);
    expect((await upload('partner1', 'a.pdf', PDF)).statusCode).toBe(403);
    expect((await c.get('subjectleader', '/api/vesta/resource/page')).statusCode).toBe(403);
  });
});

describe('preview and download', () => {
  const idOf = async (title: string) => (await c.data('schooladmin', `/api/vesta/resource/page?keyword=${encodeURIComponent(title)}`)).records[0].id;

  it('previews a PDF inline with its content type', async () => {
    const res = await c.get('teacher', `/api/vesta/resource/preview?resourceId=${await idOf('方程教案')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });

  it('downloads as an attachment with the Chinese name (RFC 5987)', async () => {
    const res = await c.get('parttime', `/api/vesta/resource/download?resourceId=${await idOf('方程教案')}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="________.pdf"; filename*=UTF-8''${encodeURIComponent('一元一次方程教案.pdf')}`);
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });

  it('does not preview office files', async () => {
    const res = await c.get('teacher', `/api/vesta/resource/preview?resourceId=${await idOf('试卷')}`);
    expect([res.statusCode, res.json().msg]).toEqual([415, '该类型文件不支持预览，请下载后查看']);
  });

  it("hides resources from another tenant", async () => {
    const id = await idOf('方程教案');
    expect((await c.get('schooladmin2', `/api/vesta/resource/download?resourceId=${id}`)).statusCode).toBe(404);
    expect((await c.get('teacher3', `/api/vesta/resource/preview?resourceId=${id}`)).statusCode).toBe(404);
    expect((await c.data('schooladmin2', '/api/vesta/resource/page')).total).toBe(0);
  });
});

describe('delete', () => {
  it('lets only the uploader or a school admin delete, and frees bytes no one else uses', async () => {
    const mine = (await upload('teacher2', '课件.pdf', Buffer.concat([PDF, Buffer.from('课件')]), { type: '课件' })).json().data;
    const res = await c.post('teacher', '/api/vesta/resource/remove', { resourceId: mine.id });
    expect([res.statusCode, res.json().msg]).toEqual([403, '只有上传者或学校管理员可以删除该资源']);
    expect((await c.post('schooladmin2', '/api/vesta/resource/remove', { resourceId: mine.id })).statusCode).toBe(404);
    await c.done('teacher2', '/api/vesta/resource/remove', { resourceId: mine.id });
    expect(await stored(Buffer.concat([PDF, Buffer.from('课件')]))).toBe(false);

    // The same bytes uploaded twice are stored once and survive the first delete.
    const a = (await upload('teacher', 'a.pdf', PDF, { type: '其他', title: '副本一' })).json().data;
    await c.done('schooladmin', '/api/vesta/resource/remove', { resourceId: a.id });
    expect(await stored(PDF)).toBe(true);
    const list = await c.data('teacher', '/api/vesta/resource/page');
    expect(list.records.map((r: { title: string }) => r.title)).not.toContain('副本一');
  });
});

// Demo files for the school resource library, so 学校资源 shows real documents on a first start:
// a printable answer sheet (PDF) and a lesson slide (PNG), both made by our own engine, so no
// binary needs to live in the repository and the bytes are the same on every machine.
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { grades, resources, subjects, users } from '../db/schema';
import type { FileStore } from '../files/store';

async function store(files: FileStore, bytes: Uint8Array) {
  const pending = await files.write(Readable.from(Buffer.from(bytes)));
  await pending.commit();
  return { hash: pending.hash, size: pending.size };
}

async function slide(title: string, lines: string[]): Promise<Buffer> {
  const { textToSvg } = await import('../grading/layout/font');
  const body = [
    textToSvg(title, 80, 130, 56, { fill: '#1a4fb4' }),
    ...lines.map((line, i) => textToSvg(line, 100, 250 + i * 80, 36, { fill: '#222' })),
  ].join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="#f7f9fc"/><rect x="0" y="0" width="1280" height="16" fill="#1a4fb4"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Adds the demo files to the first school (uploaded by its school admin). */
export async function seedDemoResources(db: Db, files: FileStore): Promise<void> {
  const [admin] = await db.select().from(users).where(eq(users.username, 'schooladmin'));
  if (!admin?.schoolId || !admin.tenantId) return;
  const [grade7] = await db.select().from(grades).where(and(eq(grades.schoolId, admin.schoolId), eq(grades.level, 7)));
  const subjectId = async (name: string) => (await db.select().from(subjects).where(eq(subjects.name, name)))[0]?.id ?? null;

  const { buildLayout, renderSheetPdf, copiesFor } = await import('../grading');
  const { sampleChineseSheet } = await import('../grading/corpus/sampleSheets');
  const layout = buildLayout(sampleChineseSheet());
  const pdf = await store(files, await renderSheetPdf(layout, copiesFor(layout, 1)));
  const png = await store(
    files,
    await slide('一元一次方程（第一课时）', ['1. 什么是方程：含有未知数的等式', '2. 一元一次方程：只含一个未知数，次数为 1', '3. 例：3x + 5 = 20，求 x', '4. 课堂练习：课本第 82 页 1～4 题']),
  );
  const base = { tenantId: admin.tenantId, schoolId: admin.schoolId, uploaderId: admin.id, gradeId: grade7?.id ?? null };
  await db.insert(resources).values([
    { ...base, subjectId: await subjectId('语文'), type: '试卷', title: '七年级语文期中考试答题卡', fileName: '七年级语文期中考试答题卡.pdf', fileHash: pdf.hash, mime: 'application/pdf', size: pdf.size },
    { ...base, subjectId: await subjectId('数学'), type: '课件', title: '一元一次方程（第一课时）', fileName: '一元一次方程.png', fileHash: png.hash, mime: 'image/png', size: png.size },
  ]);
}

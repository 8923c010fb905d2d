import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CLEAN_MIX, makeScan, PENCIL_MIX, randomFilling } from './corpus/generate.js';
import { essayText } from './corpus/phrases.js';
import { rng } from './corpus/random.js';
import { sampleChineseSheet, sampleMathSheet } from './corpus/sampleSheets.js';
import { buildLayout } from './layout/build.js';
import type { SheetLayout } from './layout/types.js';
import { reviewFlagLabel } from './omr/recognise.js';
import { readHomeworkPhoto } from './homework/read.js';
import type { HomeworkQuestion } from './homework/align.js';
import { gradeFiles, type Submission } from './pipeline.js';
import { renderSheetPdf } from './render/pdf.js';
import type { AnswerKey } from './score/score.js';

// Command line for teachers and developers:
//   npx tsx server/grading/cli.ts <folder or PDF> [--key key.json] [--layout x.layout.json] [--no-ocr] [--json]
//   npx tsx server/grading/cli.ts demo <folder>   (writes sample templates, a key, printable PDFs and simulated scans)
//   npx tsx server/grading/cli.ts homework <photo...> [--questions questions.json]

const IMAGE_EXT = new Set(['.jpg', '.jpeg', '.png', '.webp', '.tif', '.tiff', '.pdf']);

function usage(): never {
  console.error(
    [
      '用法：',
      '  npx tsx server/grading/cli.ts <文件夹或PDF> [--key 答案.json] [--layout 模板.layout.json] [--no-ocr] [--json]',
      '  npx tsx server/grading/cli.ts demo <文件夹>    生成示例模板、答案、可打印 PDF 和模拟扫描件',
      '  npx tsx server/grading/cli.ts homework <作业照片...> [--questions 题目.json]    识别没有答题卡的作业照片',
      '答题卡模板（*.layout.json）会在文件夹或 PDF 所在目录中自动查找。',
    ].join('\n'),
  );
  process.exit(2);
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    console.error(`无法读取 ${path}：文件不存在或不是有效的 JSON`);
    process.exit(2);
  }
}

/** A class with a key, answers mostly right, some hard cases, scans of varying quality. */
async function demo(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const math = buildLayout(sampleMathSheet());
  const chinese = buildLayout(sampleChineseSheet());
  for (const l of [math, chinese]) {
    writeFileSync(join(dir, `${l.sheetId}.layout.json`), JSON.stringify(l, null, 1));
    writeFileSync(join(dir, `${l.sheetId}-打印.pdf`), await renderSheetPdf(l));
  }
  const r = rng(2024);
  const mathKey: AnswerKey = { sheetId: math.sheetId, multipleRule: { missing: 0.5, wrong: 0 }, items: {} };
  for (const it of math.pages[0]!.objective) {
    const labels = it.bubbles.map((b) => b.label);
    const answer = it.type === 'multiple' ? labels.filter((_, i) => i % 2 === 0).join('') : labels[Math.floor(r() * labels.length)]!;
    mathKey.items[String(it.no)] = { answer, points: it.type === 'multiple' ? 4 : 2 };
  }
  mathKey.items['41'] = { blanks: [['3', '三'], ['-2']], points: 4 };
  mathKey.items['42'] = { blanks: [['x=5', '5']], points: 2 };
  mathKey.items['43'] = { blanks: [['12'], ['24']], points: 4 };
  const chineseKey: AnswerKey = { sheetId: chinese.sheetId, items: { '11': { blanks: [['举头望明月'], ['低头思故乡']], points: 4 }, '12': { blanks: [['海内存知己'], ['天涯若比邻']], points: 4 }, '13': { essay: true, points: 50 } } };
  for (const it of chinese.pages[0]!.objective) chineseKey.items[String(it.no)] = { answer: it.bubbles[1]!.label, points: 3 };
  writeFileSync(join(dir, 'key.json'), JSON.stringify([mathKey, chineseKey], null, 1));

  const scans = join(dir, 'scans');
  mkdirSync(scans, { recursive: true });
  const students = math.identity.mode === 'roster' ? math.identity.students : [];
  const qualities = [{}, { rotateDeg: 8, noise: 6 }, { upsideDown: true, jpegQuality: 60 }, { perspective: 0.8, shadow: 0.4, noise: 5, background: 70 }];
  for (const [i, s] of students.entries()) {
    const f = randomFilling(math, { sheetId: math.sheetId, page: 1, studentId: s.id }, rng(i + 1), i === 3 ? PENCIL_MIX : CLEAN_MIX);
    // Most students know most answers: copy the key where the simulated mark is a clean one.
    for (const it of math.pages[0]!.objective) {
      const marks = f.objective[it.no] ?? [];
      const k = mathKey.items[String(it.no)];
      if (k && 'answer' in k && marks.length > 0 && marks.every((m) => m.style === 'full') && r() < 0.8) {
        f.objective[it.no] = [...k.answer].map((label) => ({ label, style: 'full' as const }));
      }
    }
    if (i === 3) {
      // The pencil-marked sheet always shows the cases a teacher is asked about.
      f.objective[5] = [{ label: 'B', style: 'half' }];
      f.objective[14] = [{ label: 'A', style: 'full' }, { label: 'D', style: 'faint' }];
    }
    f.fill = { 41: ['3', '-2'], 42: ['x=5'], 43: ['12', i % 2 ? '20' : '24'] };
    f.short = { 44: ['解：设鸡有x只，兔有y只', 'x+y=35，2x+4y=94', '答：鸡23只，兔12只'] };
    writeFileSync(join(scans, `${String(i + 1).padStart(2, '0')}-${s.name}.jpg`), await makeScan(math, f, qualities[i % 4]!, i + 1));
  }
  // One anonymous three-page language sheet with an essay running across the pages.
  const essay = essayText(700);
  const p1 = randomFilling(chinese, { sheetId: chinese.sheetId, page: 1 }, rng(9), CLEAN_MIX);
  p1.fill = { 11: ['举头望明月', '低头思故乡'], 12: ['海内存知己', '天涯若比邻'] };
  p1.essay = essay;
  writeFileSync(join(scans, '05-语文-1.jpg'), await makeScan(chinese, p1, { rotateDeg: -4, noise: 5 }, 9));
  for (const page of [2, 3]) {
    const f = { copy: { sheetId: chinese.sheetId, page }, objective: {}, essay };
    writeFileSync(join(scans, `05-语文-${page}.jpg`), await makeScan(chinese, f, { rotateDeg: page === 2 ? 3 : -2, noise: 5 }, 8 + page));
  }
  for (const l of [math, chinese]) writeFileSync(join(scans, `${l.sheetId}.layout.json`), JSON.stringify(l));
  console.log(`示例已生成：${dir}`);
  console.log(`试一试：npx tsx server/grading/cli.ts ${join(dir, 'scans')} --key ${join(dir, 'key.json')}`);
}

function submissionText(s: Submission): string {
  const who = s.studentId ?? `未识别（${s.pages.flatMap((p) => p.student.flags).join('；') || '无学生信息'}）`;
  const score = s.score ? `${s.score.total}/${s.score.max} 分` : '未提供答案';
  const lines = [`${s.needsReview ? '⚠' : '✓'} 答题卡 ${s.sheetId}  学生 ${who}  ${score}  （${s.pages.map((p) => p.source).join('、')}）`];
  if (s.missingPages.length) lines.push(`    缺少第 ${s.missingPages.join('、')} 页`);
  for (const p of s.pages) for (const f of p.pageFlags) lines.push(`    ${p.source}：${f}`);
  const items = s.pages.flatMap((p) => p.items);
  if (items.length) lines.push(`    作答：${items.map((it) => `${it.no}:${it.answer || '-'}`).join(' ')}`);
  for (const f of s.pages.flatMap((p) => p.fills)) {
    lines.push(`    填空 ${f.no}(${f.box + 1})：${f.blank ? '（空白）' : `${f.text}（置信度 ${Math.round(f.confidence * 100)}%）`}`);
  }
  for (const a of s.pages.flatMap((p) => p.shortAnswers)) {
    lines.push(`    解答 ${a.no}：${a.lines.length ? a.lines.map((l) => l.text).join(' / ') : '（空白）'}`);
  }
  for (const e of s.essays) {
    const r = e.result.rubric;
    lines.push(`    作文 ${e.no}：${r.charCount} 字，${e.result.score}/${r.fullMarks} 分（${r.dimensions.map((d) => `${d.name} ${d.score}`).join('，')}）`);
    lines.push(`      评语：${r.comment}`);
    if (e.result.llm && !e.result.llm.ok) lines.push(`      大模型未参与评分：${e.result.llm.error}`);
    if (e.result.llm?.ok) lines.push(`      大模型评语：${e.result.llm.review.comment}`);
  }
  for (const it of items.filter((i) => i.flags.length)) lines.push(`    复核 第${it.no}题：${it.flags.map((f) => reviewFlagLabel[f]).join('；')}`);
  for (const i of s.score?.items.filter((x) => x.needsReview && x.reasons.length) ?? []) lines.push(`    复核 第${i.no}题：${i.reasons.join('；')}`);
  return lines.join('\n');
}

async function grade(target: string, opts: { key?: string; layout?: string[]; ocr: boolean; json: boolean }): Promise<void> {
  const path = resolve(target);
  if (!existsSync(path)) {
    console.error(`找不到 ${target}`);
    process.exit(2);
  }
  const isDir = statSync(path).isDirectory();
  const folder = isDir ? path : dirname(path);
  const names = isDir ? readdirSync(path).filter((n) => IMAGE_EXT.has(extname(n).toLowerCase())).sort() : [basename(path)];
  const layoutFiles = [...readdirSync(folder).filter((n) => n.endsWith('.layout.json')).map((n) => join(folder, n)), ...(opts.layout ?? [])];
  const layouts = layoutFiles.map((f) => readJson<SheetLayout>(f));
  if (layouts.length === 0) {
    console.error('没有找到答题卡模板（*.layout.json），请用 --layout 指定');
    process.exit(2);
  }
  const keyData = opts.key ? readJson<AnswerKey | AnswerKey[]>(opts.key) : [];
  const keys = Array.isArray(keyData) ? keyData : [keyData];
  const started = performance.now();
  const result = await gradeFiles(
    names.map((n) => ({ name: n, bytes: readFileSync(join(folder, n)) })),
    { layouts, keys, ocr: opts.ocr },
  );
  const seconds = (performance.now() - started) / 1000;
  if (opts.json) {
    console.log(JSON.stringify(result, null, 1));
    return;
  }
  for (const s of result.submissions) console.log(submissionText(s));
  for (const f of result.failures) console.log(`✗ ${f.source}：${f.error}`);
  const pages = result.submissions.reduce((n, s) => n + s.pages.length, 0) + result.failures.length;
  const scored = result.submissions.flatMap((s) => (s.score ? [s.score.total] : []));
  console.log('');
  console.log(
    `共 ${pages} 页、${result.submissions.length} 份答题卡：无法识别 ${result.failures.length} 页，需老师复核 ${result.submissions.filter((s) => s.needsReview).length} 份`,
  );
  if (scored.length) console.log(`平均分 ${(scored.reduce((s, v) => s + v, 0) / scored.length).toFixed(1)}，最高 ${Math.max(...scored)}，最低 ${Math.min(...scored)}`);
  console.log(`用时 ${seconds.toFixed(1)} 秒`);
  if (result.failures.length) process.exitCode = 1;
}

/** Homework photos: each photo's lines attached to the questions (a JSON list of {no, text?}). */
async function homework(photos: string[], questionsFile: string | undefined): Promise<void> {
  const questions = questionsFile ? readJson<HomeworkQuestion[]>(questionsFile) : [];
  for (const photo of photos) {
    if (!existsSync(photo)) {
      console.error(`找不到 ${photo}`);
      process.exitCode = 2;
      continue;
    }
    let r;
    try {
      r = await readHomeworkPhoto(readFileSync(photo), questions);
    } catch (e) {
      console.error(`${basename(photo)}：${(e as Error).message}`);
      process.exitCode = 1;
      continue;
    }
    console.log(`${basename(photo)}：`);
    for (const a of r.answers) console.log(`    第${a.no}题：${a.text || '（只有题目）'}（置信度 ${Math.round(a.confidence * 100)}%）`);
    if (r.missing.length) console.log(`    未作答：第 ${r.missing.join('、')} 题`);
    for (const l of r.unaligned) console.log(`    无法对应到题目：${l.text}`);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      layout: { type: 'string', multiple: true },
      questions: { type: 'string' },
      'no-ocr': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (positionals[0] === 'homework') {
    if (positionals.length < 2) usage();
    await homework(positionals.slice(1), values.questions);
    return;
  }
  if (positionals[0] === 'demo') {
    if (!positionals[1]) usage();
    await demo(resolve(positionals[1]));
    return;
  }
  if (positionals.length !== 1) usage();
  await grade(positionals[0]!, { key: values.key, layout: values.layout, ocr: !values['no-ocr'], json: !!values.json });
}

await main();

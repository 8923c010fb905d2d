// The family page as plain HTML from the server: no script (it works under the CSP as it is, and on
// an old phone), math as MathML (KaTeX's MathML output, which phone browsers draw themselves, so no
// style sheet or fonts to serve), <details> to open a work's wrong questions, and a plain form for a
// regrade request. Phone first: one column, 16 px text, full-width buttons.
// KaTeX (a few MB of code) loads with the first family page, not with the API: loadMath() before pageHtml.
import type katexModule from 'katex';
import { FAMILY_LIMITS, REGRADE_ESSAY, RegradeStatus, type DisclosedResult } from '../../../src/domain/family';
import { dateOnly, dayTime } from '../../../src/domain/format';
import type { FamilyPage, RegradeView } from './page';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Formulas as MathML, remembered: a class's pages share their questions, and KaTeX costs more than
 * the rest of the page. Bounded; when full it starts over.
 */
const formulas = new Map<string, string>();
const FORMULAS_KEPT = 5000;
let katex: typeof katexModule | undefined;

/** Loads KaTeX once; pageHtml needs it. */
export async function loadMath(): Promise<void> {
  katex ??= (await import('katex')).default;
}

function formula(tex: string): string {
  let out = formulas.get(tex);
  if (out === undefined) {
    if (formulas.size >= FORMULAS_KEPT) formulas.clear();
    if (!katex) throw new Error('loadMath() must run before a page with formulas is made');
    out = katex.renderToString(tex, { throwOnError: false, output: 'mathml' });
    formulas.set(tex, out);
  }
  return out;
}

/** Text with LaTeX between $…$, as the bank keeps stems, options and 解析. */
export function mathText(text: string): string {
  return text
    .split(/(\$[^$]+\$)/g)
    .map((part) => (part.length > 2 && part.startsWith('$') && part.endsWith('$') ? formula(part.slice(1, -1)) : escapeHtml(part).replace(/\n/g, '<br>')))
    .join('');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 -apple-system,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;background:#f2f4f7;color:#1f2329;-webkit-text-size-adjust:100%}
main{max-width:720px;margin:0 auto;padding:12px}
header.top{background:#2f6fed;color:#fff;border-radius:12px;padding:16px;margin-bottom:12px}
header.top h1{font-size:22px;margin:0 0 4px}
header.top p{margin:0;font-size:14px;opacity:.92}
section{background:#fff;border-radius:12px;padding:14px 16px;margin-bottom:12px}
h2{font-size:17px;margin:0 0 8px}
ul.plain{list-style:none;margin:0;padding:0}
ul.plain>li{padding:10px 0;border-top:1px solid #eef0f3}
ul.plain>li:first-child{border-top:0}
.muted{color:#646a73;font-size:14px}
.tag{display:inline-block;font-size:12px;line-height:20px;padding:0 6px;border-radius:4px;background:#eef3ff;color:#2f6fed;margin-right:6px;vertical-align:1px}
.tag.warn{background:#fff4e0;color:#b26a00}.tag.ok{background:#e8f7ee;color:#16803c}
.result{font-weight:600}
details>summary{cursor:pointer;list-style:none}
details>summary::-webkit-details-marker{display:none}
details>summary .more{color:#2f6fed;font-size:14px;white-space:nowrap}
details[open]>summary .more{display:none}
.q{background:#f7f8fa;border-radius:8px;padding:10px 12px;margin-top:10px;overflow-wrap:anywhere}
.q .stem{margin-bottom:6px}
.q dl{margin:6px 0 0;display:grid;grid-template-columns:auto 1fr;gap:2px 8px;font-size:15px}
.q dt{color:#646a73}.q dd{margin:0}
.right{color:#16803c}.wrongans{color:#d93026}
form.rg{margin-top:8px}
form.rg label{display:block;font-size:14px;color:#646a73;margin-bottom:4px}
textarea{width:100%;min-height:72px;font:inherit;padding:8px;border:1px solid #d0d3d9;border-radius:8px;resize:vertical}
button{margin-top:8px;width:100%;height:44px;border:0;border-radius:8px;background:#2f6fed;color:#fff;font-size:16px}
.answer{margin-top:6px;padding:8px;border-left:3px solid #16803c;background:#f0faf3;border-radius:4px}
.notice{padding:10px 12px;border-radius:8px;margin-bottom:12px;background:#e8f7ee;color:#16803c}
.notice.bad{background:#fdecea;color:#d93026}
footer{font-size:12px;color:#8f959e;padding:4px 4px 24px}
math{font-size:1.05em}
`;

/** The product's icon (as account.html), inline: the page asks the server for nothing else. */
const ICON =
  'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 32 32%22%3E%3Crect width=%2232%22 height=%2232%22 rx=%227%22 fill=%22%232f6fed%22/%3E%3Ctext x=%2216%22 y=%2223%22 font-size=%2218%22 text-anchor=%22middle%22 fill=%22white%22%3E%E5%AD%A6%3C/text%3E%3C/svg%3E';

/** The frame of every family page: noindex, no referrer (the headers say it too), no script. */
export function familyHtml(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<link rel="icon" href="${ICON}">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The page a dead link answers: what happened and whom to ask, no data. */
export function deadLinkHtml(title: string, message: string): string {
  return familyHtml(
    title,
    `<section style="margin-top:48px;text-align:center"><h1 style="font-size:20px">${escapeHtml(title)}</h1><p class="muted">${escapeHtml(message)}</p></section>`,
  );
}

function resultText(r: DisclosedResult, submitted: boolean): string {
  if (!submitted) return '<span class="tag warn">未提交</span>';
  if (r.band) return `<span class="result">等级：${escapeHtml(r.band)}</span>`;
  if (r.rank !== undefined) return `<span class="result">班级第 ${r.rank} 名</span><span class="muted">（共 ${r.ranked} 人）</span>`;
  return '<span class="tag ok">已提交</span>';
}

function options(opts: { key: string; text: string }[] | null): string {
  if (!opts?.length) return '';
  return `<div class="muted">${opts.map((o) => `${escapeHtml(o.key)}. ${mathText(o.text)}`).join('<br>')}</div>`;
}

function regradeBlock(token: string, work: { sourceType: number; sourceId: number }, questionId: number, regrade: RegradeView | null, zone: string, ask = '对这道题的批改有疑问？'): string {
  if (regrade && regrade.status === RegradeStatus.open) return `<p class="muted">已申请复核（${dayTime(regrade.createdAt, new Date(), zone)}），等待老师答复。</p>`;
  const answered = regrade
    ? `<div class="answer"><b>老师答复：</b>${escapeHtml(regrade.answer ?? '')}<div class="muted">${dayTime(regrade.answeredAt, new Date(), zone)}</div></div>`
    : '';
  return `${answered}<form class="rg" method="post" action="/f/${token}/regrade">
<input type="hidden" name="sourceType" value="${work.sourceType}"><input type="hidden" name="sourceId" value="${work.sourceId}"><input type="hidden" name="questionId" value="${questionId}">
<label for="r-${work.sourceType}-${work.sourceId}-${questionId}">${ask}写下原因（最多 ${FAMILY_LIMITS.reasonMax} 字），请老师复核：</label>
<textarea id="r-${work.sourceType}-${work.sourceId}-${questionId}" name="reason" maxlength="${FAMILY_LIMITS.reasonMax}" required></textarea>
<button type="submit">申请复核</button></form>`;
}

function question(q: { stem: string; options: { key: string; text: string }[] | null; correctAnswer: string; analysis: string }, extra: string): string {
  return `<div class="stem">${mathText(q.stem)}</div>${options(q.options)}<dl>${extra}
<dt>正确答案</dt><dd class="right">${mathText(q.correctAnswer || '—')}</dd>
<dt>解析</dt><dd>${q.analysis ? mathText(q.analysis) : '<span class="muted">暂无解析</span>'}</dd></dl>`;
}

export function pageHtml(token: string, page: FamilyPage, notice?: { ok: boolean; text: string }): string {
  const s = page.student;
  const zone = page.zone;
  const head = `<header class="top"><h1>${escapeHtml(s.name)}的学习情况</h1>
<p>${escapeHtml(s.schoolName)} · ${escapeHtml(s.gradeName)}${escapeHtml(s.className)} · ${escapeHtml(page.scopeName)}</p>
<p>链接有效期至 ${dayTime(page.expiresAt, new Date(), zone)}</p></header>`;
  const flash = notice ? `<div class="notice${notice.ok ? '' : ' bad'}" role="status">${escapeHtml(notice.text)}</div>` : '';

  const upcoming = `<section id="upcoming"><h2>待完成的作业</h2>${
    page.upcoming.length
      ? `<ul class="plain">${page.upcoming
          .map((h) => `<li><span class="tag">${escapeHtml(h.courseName)}</span>${escapeHtml(h.title)}<div class="muted">截止 ${dayTime(h.dueAt, new Date(), zone)}${h.submitted ? ' · 已提交' : ''}</div></li>`)
          .join('')}</ul>`
      : '<p class="muted">暂无待完成的作业</p>'
  }</section>`;

  const works = `<section id="works"><h2>作业与考试</h2>${
    page.works.length
      ? `<ul class="plain">${page.works
          .map((w) => {
            const line = `<span class="tag">${w.kind}</span><span class="tag">${escapeHtml(w.courseName)}</span>${escapeHtml(w.title)}
<div class="muted">${dateOnly(w.date, zone)}</div><div>${resultText(w.result, w.submitted)}${w.wrong.length ? ` <span class="muted">· 错 ${w.wrong.length} 题</span>` : ''}</div>`;
            if (!w.wrong.length) return `<li>${line}</li>`;
            const qs = w.wrong
              .map(
                (q) => `<div class="q" id="q-${w.sourceType}-${w.sourceId}-${q.questionId}"><b>第 ${escapeHtml(q.no || '?')} 题</b>
${question(q, q.studentAnswer ? `<dt>作答</dt><dd class="wrongans">${mathText(q.studentAnswer)}</dd>` : '')}
${regradeBlock(token, w, q.questionId, q.regrade, zone)}</div>`,
              )
              .join('');
            return `<li><details><summary>${line}<span class="more">查看错题 ▾</span></summary>${qs}</details></li>`;
          })
          .join('')}</ul>`
      : '<p class="muted">本学期还没有作业或考试</p>'
  }</section>`;

  const redo = `<section id="redo"><h2>需要重做的错题</h2>${
    page.redo.length
      ? `<p class="muted">还没有掌握的题目，共 ${page.redo.length} 道。建议先自己重做，再对照答案。</p>${page.redo
          .map(
            (q) => `<details class="q"><summary><span class="tag warn">${q.masteryLabel}</span><span class="muted">错 ${q.timesWrong} 次</span>
<div class="stem">${mathText(q.stem)}</div>${options(q.options)}<span class="more">查看答案与解析 ▾</span></summary>
<dl><dt>正确答案</dt><dd class="right">${mathText(q.correctAnswer || '—')}</dd><dt>解析</dt><dd>${q.analysis ? mathText(q.analysis) : '<span class="muted">暂无解析</span>'}</dd></dl></details>`,
          )
          .join('')}`
      : '<p class="muted">没有需要重做的错题</p>'
  }</section>`;

  const essays = page.essays.length
    ? `<section id="essays"><h2>作文评语</h2><ul class="plain">${page.essays
        .map(
          (e) => `<li>${escapeHtml(e.title)}<div class="muted">${dateOnly(e.date, zone)}</div><div>${resultText(e.result, true)}</div>
${e.comment ? `<div class="answer"><b>老师评语：</b>${escapeHtml(e.comment)}</div>` : '<p class="muted">老师暂未写评语</p>'}
<div class="q" id="q-${e.sourceType}-${e.sourceId}-${e.questionId}">${regradeBlock(token, e, e.questionId, e.regrade, zone, '对这篇作文的评分有疑问？')}</div></li>`,
        )
        .join('')}</ul></section>`
    : '';

  const regrades = `<section id="regrades"><h2>复核申请</h2>${
    page.regrades.length
      ? `<ul class="plain">${page.regrades
          .map(
            (r) => `<li><span class="tag${r.status === RegradeStatus.open ? ' warn' : ' ok'}">${r.statusLabel}</span>${escapeHtml(r.workTitle)} ${r.sourceType === REGRADE_ESSAY.sourceType ? '作文' : `第 ${escapeHtml(r.questionNo || '?')} 题`}
<div class="muted">原因：${escapeHtml(r.reason)}（${dayTime(r.createdAt, new Date(), zone)}）</div>
${r.answer ? `<div class="answer"><b>老师答复：</b>${escapeHtml(r.answer)}<div class="muted">${dayTime(r.answeredAt, new Date(), zone)}</div></div>` : ''}</li>`,
          )
          .join('')}</ul>`
      : '<p class="muted">还没有复核申请。在“作业与考试”里打开一道错题，或在“作文评语”里，即可申请。</p>'
  }</section>`;

  const footer = `<footer>成绩显示方式由学校设定：${escapeHtml(page.disclosureLabel)}。本页只显示${escapeHtml(s.name)}本人的信息，每次打开都会记录。请勿转发给他人。</footer>`;
  return familyHtml(`${s.name}的学习情况`, head + flash + upcoming + works + redo + essays + regrades + footer);
}

// The essay scorer on texts it has never seen: 20 essays written for the product with a
// teacher's score (fixtures/essays.ts) and the degenerate and gamed texts built from them
// (fixtures/gamed.ts). A teacher must be able to trust the number without re-reading: nothing
// that is not an essay keeps more than a tenth of full marks whatever title words it contains,
// decent essays keep at least 60 %, the engine agrees with the teacher (kappa), and every
// comment quotes what it is about and agrees with the score.
import { describe, expect, it } from 'vitest';
import { scoreEssayRubric } from '../../server/grading/index.js';
import { ESSAYS, PROMPTS } from './fixtures/essays';
import { essayFigures, optsOf } from './fixtures/figures';

const figures = essayFigures();
const squeeze = (s: string) => s.replace(/\s+/g, '');

describe('degenerate and gamed texts', () => {
  it.each(figures.gamed.map((g) => [`${g.prompt} · ${g.name}`, g] as const))('%s keeps at most a tenth of full marks and says why', (_name, g) => {
    expect(g.share).toBeLessThanOrEqual(0.1);
    expect(g.result.flags.length).toBeGreaterThan(0);
    expect(g.result.comment).toMatch(/未作答|抄写题目|内容大量重复|内容无法辨认|语句不通|与题目无关/);
  });

  it('the prompt copied out scores near zero even with only the title given, when the whole prompt is passed', () => {
    const p = PROMPTS[0]!;
    const r = scoreEssayRubric(p.prompt, { ...optsOf(p) });
    expect(r.score).toBeLessThanOrEqual(1);
    expect(r.flags[0]!.kind).toBe('copiedPrompt');
  });
});

describe('an empty essay', () => {
  it.each(['', '   \n  '])('counts as 0 of its full marks (%j)', (text) => {
    const r = scoreEssayRubric(text, optsOf(PROMPTS[1]!));
    expect(r.score).toBe(0);
    expect(r.fullMarks).toBe(50);
    expect(r.flags.map((f) => f.kind)).toEqual(['empty']);
    expect(r.comment).toContain('未作答');
  });
});

describe('held-out essays against the teacher', () => {
  it('decent essays (the teacher gave 60 % or more) keep at least 60 %', () => {
    for (const h of figures.heldOut.filter((x) => x.teacher / x.full >= 0.6)) {
      expect(h.engine / h.full, h.result.sentences[0]).toBeGreaterThanOrEqual(0.6);
      expect(h.result.flags).toEqual([]);
    }
  });

  it('agrees with the teacher: quadratic weighted kappa ≥ 0.8 over ten bands', () => {
    expect(figures.heldOut).toHaveLength(ESSAYS.length);
    expect(figures.kappa).toBeGreaterThanOrEqual(0.8);
  });

  it('ranks each prompt’s best essay above its few-line one', () => {
    for (const p of PROMPTS) {
      const mine = figures.heldOut.filter((_, i) => ESSAYS[i]!.prompt === p.key).sort((a, b) => b.teacher - a.teacher);
      expect(mine[0]!.engine).toBeGreaterThan(mine.at(-1)!.engine + 20);
    }
  });
});

describe('comments come from this essay', () => {
  const all = figures.heldOut.map((h, i) => ({ ...h, essay: ESSAYS[i]!, prompt: PROMPTS.find((p) => p.key === ESSAYS[i]!.prompt)! }));

  it('every quoted sentence is in the essay', () => {
    for (const h of all) {
      const quotes = [...h.result.comment.matchAll(/「([^」]+)」/g)].map((m) => m[1]!.replace(/…$/, ''));
      expect(quotes.length, h.result.comment).toBeGreaterThan(0);
      for (const q of quotes) expect(squeeze(h.essay.text), `${q} · ${h.result.comment}`).toContain(q);
    }
  });

  it('follow the genre: no narrative advice on an argument or an explanation', () => {
    for (const h of all.filter((x) => x.prompt.genre !== '记叙文')) {
      expect(h.result.genre).toBe(h.prompt.genre);
      expect(h.result.comment).not.toMatch(/人物的语言|动作描写|事情发展的先后顺序/);
    }
    const argument = all.filter((x) => x.prompt.genre === '议论文' && !x.result.flags.length);
    expect(argument.some((x) => /论点|论据|观点/.test(x.result.comment))).toBe(true);
    const explanation = all.filter((x) => x.prompt.genre === '说明文' && !x.result.flags.length);
    expect(explanation.every((x) => /说明方法/.test(x.result.comment))).toBe(true);
  });

  it('a maths essay gets no narrative advice either', () => {
    const text = [
      '生活中的负数',
      '以前我以为负数只在数学书里，后来我发现它就在身边。冬天的天气预报说“最低气温零下五摄氏度”，记作－5℃。',
      '商场的电梯里有负一楼，表示在地面以下的第一层。银行存折上，存入记作正数，取出记作负数。',
      '负数让我们能表示相反意义的量。我明白了，数学就在我们的生活中。',
    ].join('\n');
    const r = scoreEssayRubric(text, { title: '生活中的负数', minChars: 150, fullMarks: 20 });
    expect(r.flags).toEqual([]);
    expect(r.comment).not.toMatch(/人物的语言|动作描写|事情发展/);
  });

  it('a maths essay read line by line from a grid, without punctuation, is on topic and not word salad', () => {
    const lines = ['生活中的负数', '周末我和爸爸去滑雪', '山上的温度计显示零下十度', '比山下低了八度', '我用刚学的减法算了一算', '山下是零下二度', '回家后我把这件事写下来', '负数让我看到了数学的用处'];
    const r = scoreEssayRubric(lines.join('\n'), { title: '生活中的负数', minChars: 60, fullMarks: 20 });
    expect(r.flags).toEqual([]);
    expect(r.score).toBeGreaterThanOrEqual(10);
  });

  it('never contradict the score: a dimension with most of its points is not told it is weak, a weak one is not praised', () => {
    for (const h of all) {
      if (h.result.flags.length) continue;
      for (const d of h.result.dimensions) {
        const share = d.score / d.max;
        // 字数 states a count (「未达到 300 字」 is a fact at 264), the others judge.
        if (share >= 0.8 && d.key !== 'length') expect(d.comment, `${d.name} ${d.score}/${d.max}`).not.toMatch(/关系不大|不够|仓促|混乱|太短|平淡/);
        if (d.key === 'length' && d.comment.includes('达到字数要求')) expect(d.score).toBe(d.max);
        if (d.key === 'length' && d.score < d.max) expect(d.comment).toContain('未达到');
        if (share <= 0.4) expect(d.comment, `${d.name} ${d.score}/${d.max}`).not.toMatch(/内容切题|结构完整|用词比较丰富|达到字数要求|条理清楚|层次清楚/);
      }
      const ratio = h.result.score / h.result.fullMarks;
      if (ratio < 0.6) expect(h.result.comment).not.toMatch(/优秀|良好/);
      if (ratio >= 0.85) expect(h.result.comment).toMatch(/^这是一篇优秀的作文/);
    }
  });

  it('an on-topic essay is never told it strays from the topic', () => {
    for (const h of all.filter((x) => x.teacher >= 38)) expect(h.result.comment).not.toMatch(/关系不大|与题目无关|联系不够紧密/);
  });
});

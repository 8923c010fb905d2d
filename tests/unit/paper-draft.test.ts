// The paper being built on /paper (pure steps) and the print preview's address rule.
import { describe, expect, it } from 'vitest';
import { addQuestion, addSection, draftCount, draftProblem, draftTotal, emptyDraft, gradeLevelOf, moveToSection, removeQuestion, setPoints, toInput, type Draft } from '../../src/pages/paperDraft';
import { sameOriginApi } from '../../src/pages/printable';
import type { BankQuestion } from '../../src/dataProvider/papers';

const q = (id: number, type: number, points = 2): BankQuestion => ({ id, type, stem: `第${id}题`, options: null, answer: 'A', analysis: '', difficulty: 3, points, subjectId: 1, gradeLevel: 7, source: null, knowledgePoints: [], children: [] });
const add = (d: Draft, question: BankQuestion) => {
  const next = addQuestion(d, question);
  if (typeof next === 'string') throw new Error(next);
  return next;
};

describe('paper draft', () => {
  it('puts each question in its type’s section, sections in the usual order', () => {
    let d = emptyDraft('周测');
    d = add(d, q(1, 5, 10));
    d = add(d, q(2, 1, 3));
    d = add(d, q(3, 4));
    d = add(d, q(4, 2, 3));
    d = add(d, q(2, 1, 3));
    expect(d.sections.map((s) => [s.title, s.items.map((i) => i.question.id)])).toEqual([
      ['选择题', [2, 4]],
      ['填空题', [3]],
      ['解答题', [1]],
    ]);
    expect([draftCount(d), draftTotal(d)]).toEqual([4, 18]);
    d = setPoints(d, 3, 4.5);
    expect(draftTotal(d)).toBe(20.5);
    expect(toInput(d, 9, 8)).toEqual({
      title: '周测',
      subjectId: 9,
      gradeLevel: 8,
      durationMinutes: 90,
      sections: [
        { title: '选择题', questions: [{ questionId: 2, points: 3 }, { questionId: 4, points: 3 }] },
        { title: '填空题', questions: [{ questionId: 3, points: 4.5 }] },
        { title: '解答题', questions: [{ questionId: 1, points: 10 }] },
      ],
    });
    // Removing a section's last question removes the section; a teacher's own empty section stays until dropped.
    d = removeQuestion(d, 3);
    expect(d.sections.map((s) => s.title)).toEqual(['选择题', '解答题']);
    const withNew = addSection(d, '附加题') as Draft;
    const moved = moveToSection(withNew, 1, withNew.sections[2].key) as Draft;
    expect(moved.sections.map((s) => [s.title, s.items.length])).toEqual([
      ['选择题', 2],
      ['附加题', 1],
    ]);
  });

  it('says what must be fixed before saving, as the server would refuse it', () => {
    const d = add(emptyDraft('测验'), q(1, 1));
    expect(draftProblem(d)).toBeNull();
    expect(draftProblem({ ...d, title: '  ' })).toBe('请填写试卷标题');
    expect(draftProblem({ ...d, durationMinutes: 5 })).toBe('考试时长须在 10 到 300 分钟之间');
    expect(draftProblem(setPoints(d, 1, 0))).toBe('每题分值须在 0.5 到 100 分之间');
    expect(draftProblem(setPoints(d, 1, NaN))).toBe('每题分值须在 0.5 到 100 分之间');
    expect(draftProblem(emptyDraft('空'))).toBe('试题篮是空的，请先从题库加入题目');
    let full = emptyDraft('满');
    for (let i = 1; i <= 100; i++) full = add(full, q(i, 1));
    expect(addQuestion(full, q(101, 1))).toBe('每个大题最多 100 道题');
  });

  it('reads the year of schooling from a grade’s name', () => {
    expect(['七年级', '八年级', '九年级', '初一', '初三', '高一', '高三', '3年级', '一年级', '幼儿园'].map(gradeLevelOf)).toEqual([7, 8, 9, 7, 9, 10, 12, 3, 1, null]);
  });
});

describe('print preview address', () => {
  const origin = 'http://school.example:8080';
  it('takes this site’s API only', () => {
    expect(sameOriginApi('/api/minerva/v1.0/papers/3/pdf?paper=A3', origin)).toBe('/api/minerva/v1.0/papers/3/pdf?paper=A3');
    expect(sameOriginApi(`${origin}/api/vesta/resource/preview?resourceId=1`, origin)).toBe('/api/vesta/resource/preview?resourceId=1');
    for (const bad of [null, '', 'https://evil.example/api/x.pdf', '//evil.example/api/x', '/api/../index.html', '/index.html', 'javascript:alert(1)', 'http://user:pw@school.example:8080/api/x', `/api/${'x'.repeat(2001)}`]) {
      expect(sameOriginApi(bad, origin), String(bad)).toBeNull();
    }
  });
});

// The words 学情档案 and the diagnostic PDF print from counts: 临界 at the band lines, mastery levels
// at their thresholds, and the summary's comparisons.
import { describe, expect, it } from 'vitest';
import { criticalGap, masteryLevel, plainSummary, strengthsAndWeaknesses, type HistoryPoint, type HistorySubject } from '../../../src/domain/studentHistory';

const point = (id: number, items: number, rate: number | null): HistoryPoint => ({ knowledgePointId: id, name: `点${id}`, subjectName: '数学', items, correct: 0, scoreRate: rate, level: masteryLevel(items, rate) });

describe('临界', () => {
  it('flags a result below 及格 or 优秀 by at most 5 % of full marks, and nothing on or above a line', () => {
    expect(criticalGap(55, 100)).toEqual({ boundary: '及格', gap: 5 });
    expect(criticalGap(54.5, 100)).toBeNull();
    expect(criticalGap(60, 100)).toBeNull();
    expect(criticalGap(86, 100)).toEqual({ boundary: '优秀', gap: 4 });
    expect(criticalGap(90, 100)).toBeNull();
    expect(criticalGap(70, 100)).toBeNull();
    // On 120 full marks the margin is 6 points: 66 is 6 below 72 (及格).
    expect(criticalGap(66, 120)).toEqual({ boundary: '及格', gap: 6 });
    expect(criticalGap(10, 0)).toBeNull();
  });
});

describe('mastery', () => {
  it('needs 3 items and puts 85 % and 60 % in the band above', () => {
    expect(masteryLevel(2, 1)).toBe('few');
    expect(masteryLevel(3, 0.85)).toBe('strong');
    expect(masteryLevel(3, 0.8499)).toBe('fair');
    expect(masteryLevel(3, 0.6)).toBe('fair');
    expect(masteryLevel(3, 0.5999)).toBe('weak');
    expect(masteryLevel(5, null)).toBe('few');
  });

  it('names the strongest and weakest points with enough items', () => {
    const { strong, weak } = strengthsAndWeaknesses([point(1, 10, 0.95), point(2, 2, 1), point(3, 10, 0.3), point(4, 10, 0.5), point(5, 10, 0.7)], 3);
    expect(strong.map((p) => p.knowledgePointId)).toEqual([1]);
    expect(weak.map((p) => p.knowledgePointId)).toEqual([3, 4]);
  });
});

describe('summary', () => {
  const subject = (rate: number, classRate: number, weeks: number[]): HistorySubject => ({
    subjectId: 1, name: '数学', works: weeks.length, score: rate * 100, maxScore: 100, scoreRate: rate, classRate,
    weeks: weeks.map((r, i) => ({ week: `2026-09-${10 + i}`, works: 1, score: r * 10, maxScore: 10, scoreRate: r })),
  });
  const student = { id: 1, name: '王磊', studentNo: '1', className: '七(1)班', gradeName: '七年级' };
  it('compares with the class and the last three weeks', () => {
    expect(plainSummary({ student, subjects: [subject(0.8, 0.7, [0.6, 0.6, 0.6, 0.8, 0.8, 0.8])], points: [], critical: [] })[0]).toBe('数学：本学期得分率 80.0%（6 次作业和考试），高于班级（70.0%），近三周有进步。');
    expect(plainSummary({ student, subjects: [subject(0.71, 0.7, [0.8, 0.8, 0.5, 0.5, 0.5])], points: [], critical: [] })[0]).toMatch(/与班级（70.0%）相当，近三周有所下滑。$/);
    expect(plainSummary({ student, subjects: [], points: [], critical: [] })).toEqual(['王磊本学期还没有已批改的作业或考试，暂无学情可总结。']);
  });
});

// What a leader's exam report may carry: the class figures, never one student's score.
import { describe, expect, it } from 'vitest';
import { discloseToLeader } from '../../server/modules/minerva/examLeaders';
import { ScoreDisclosure } from '../../src/domain/content';

type Report = Parameters<typeof discloseToLeader>[0];

const student = (rank: number, classId: number, score: number) => ({
  rank, studentId: 100 + rank, name: `学生${rank}`, studentNo: `S${rank}`, classId, className: `七(${classId})班`, score,
});
const cls = (classId: number, scores: number[]) => ({
  classId, className: `七(${classId})班`, participants: scores.length, average: scores.reduce((s, x) => s + x, 0) / scores.length,
  highest: Math.max(...scores), lowest: Math.min(...scores), stdDev: 1, excellentRate: 0, passRate: 1,
});

const report = {
  exam: { id: 1, title: '期中', examDate: '2026-11-01', term: '2026-2027-1', fullMarks: 100, gradeId: 1, gradeName: '七年级', courseId: 1, courseName: '数学' },
  participants: 7, average: 80, highest: 97, lowest: 58, stdDev: 10,
  ranking: [student(1, 1, 97), student(2, 1, 90), student(3, 2, 58)],
  classes: [cls(1, [97, 90, 85, 80, 70, 66]), cls(2, [58])],
} as unknown as Report;

describe('discloseToLeader', () => {
  it('drops the highest and lowest scores, and the average of a class too small to hide its students', () => {
    const seen = discloseToLeader(report, ScoreDisclosure.rank) as Record<string, unknown> & { classes: Record<string, unknown>[] };
    expect(seen).not.toHaveProperty('highest');
    expect(seen).not.toHaveProperty('lowest');
    expect(seen.average).toBe(80);
    expect(seen.classes[0]).toMatchObject({ className: '七(1)班', participants: 6, average: expect.any(Number) });
    expect(seen.classes[1]).toMatchObject({ className: '七(2)班', participants: 1, average: null, stdDev: null });
    for (const c of seen.classes) expect(Object.keys(c)).not.toEqual(expect.arrayContaining(['highest']));
    expect(JSON.stringify(seen)).not.toContain('97');
  });

  it('lists ranks, bands or nobody as the school chose', () => {
    expect(discloseToLeader(report, ScoreDisclosure.rank).students[0]).toEqual({ studentId: 101, name: '学生1', className: '七(1)班', rank: 1 });
    expect(discloseToLeader(report, ScoreDisclosure.band).students.map((s) => ('band' in s ? s.band : ''))).toEqual(['优秀', '优秀', '不及格']);
    expect(discloseToLeader(report, ScoreDisclosure.none).students).toEqual([]);
  });
});

describe('discloseToLeader on one small class', () => {
  it('hides the average and spread of the scope itself when it is a class of under 5 students', () => {
    const oneClass = { ...report, participants: 1, average: 58, stdDev: 0, classes: [cls(2, [58])] } as unknown as Report;
    const seen = discloseToLeader(oneClass, ScoreDisclosure.band) as Record<string, unknown>;
    expect(seen).toMatchObject({ participants: 1, average: null, stdDev: null });
  });
});

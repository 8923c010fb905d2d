// Whose essay a photo of the class's batch is: the one student whose name or 学号 heads it.
import { describe, expect, it } from 'vitest';
import { studentNamedIn } from '../../server/modules/correct/writtenName';

const ROSTER = [
  { id: 1, name: '王芳', studentNo: '202610101' },
  { id: 2, name: '王芳芳', studentNo: '202610102' },
  { id: 3, name: '李明', studentNo: '202610103' },
];

describe('the student named at the head of an essay', () => {
  it('is found by name or by 学号 in the first lines', () => {
    expect(studentNamedIn('七(1)班 李明\n我的家乡\n我的家乡在江南', ROSTER)).toBe(3);
    expect(studentNamedIn('学号 202610101\n我的家乡', ROSTER)).toBe(1);
  });

  it('is nobody when two students could be meant, or the name only appears in the body', () => {
    // 王芳 is inside 王芳芳: the teacher decides.
    expect(studentNamedIn('王芳芳\n我的家乡', ROSTER)).toBeNull();
    expect(studentNamedIn('我的家乡\n春天来了\n柳树发芽了\n我和李明去河边玩', ROSTER)).toBeNull();
    expect(studentNamedIn('', ROSTER)).toBeNull();
  });
});

import type { ObjectiveItemSpec, SheetSpec, Student } from '../layout/types.js';

// Realistic sheets used by the corpus generator, the benchmark, the tests and `cli.ts demo`.

export const sampleStudents: Student[] = [
  { id: '20240101', name: '张喆', className: '七(2)班' },
  { id: '20240102', name: '李堃', className: '七(2)班' },
  { id: '20240103', name: '王昇', className: '七(2)班' },
  { id: '20240104', name: '赵玥', className: '七(2)班' },
];

function objectiveItems(n: number, first = 1): ObjectiveItemSpec[] {
  return Array.from({ length: n }, (_, i) => {
    const no = first + i;
    if (no % 10 === 9 || no % 10 === 0) return { no, type: 'judge' as const };
    if (no % 7 === 0) return { no, type: 'multiple' as const, options: 5 };
    return { no, type: 'single' as const, options: 4 };
  });
}

/** A4 math test: 40 objective items, fill-ins, a short answer; printed per student from the roster. */
export function sampleMathSheet(students: Student[] = sampleStudents): SheetSpec {
  return {
    sheetId: 'S2024M01',
    title: '七年级数学第一单元测验',
    paper: 'A4',
    identity: { mode: 'roster', students },
    sections: [
      { kind: 'objective', title: '一、选择题与判断题（用2B铅笔填涂）', items: objectiveItems(40) },
      { kind: 'fill', title: '二、填空题', items: [{ no: 41, blanks: 2 }, { no: 42, blanks: 1 }, { no: 43, blanks: 2 }] },
      { kind: 'short', title: '三、解答题', items: [{ no: 44, heightMm: 40 }] },
    ],
  };
}

/** A4 language test for anonymous printing: student-number bubbles, fill-ins and a 600-cell essay. */
export function sampleChineseSheet(): SheetSpec {
  return {
    sheetId: 'S2024C01',
    title: '七年级语文期中考试',
    paper: 'A4',
    identity: { mode: 'anonymous', digits: 8 },
    sections: [
      { kind: 'objective', title: '一、选择题', items: objectiveItems(10) },
      { kind: 'fill', title: '二、古诗文默写', items: [{ no: 11, blanks: 2 }, { no: 12, blanks: 2 }] },
      { kind: 'essay', title: '三、作文（不少于600字）', no: 13, cells: 800, prompt: '题目：我的老师', minChars: 600 },
    ],
  };
}

/** A3 sheet with the maximum 100 objective items including 7-option multiple choice. */
export function sampleA3Sheet(): SheetSpec {
  const items: ObjectiveItemSpec[] = objectiveItems(100).map((it) => (it.no % 25 === 0 ? { ...it, type: 'multiple', options: 7 } : it));
  return {
    sheetId: 'S2024A3',
    title: '九年级英语综合练习',
    paper: 'A3',
    identity: { mode: 'anonymous', digits: 10 },
    sections: [{ kind: 'objective', title: '一、选择题', items }],
  };
}

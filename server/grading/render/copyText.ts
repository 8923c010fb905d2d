import { studentPages } from '../layout/build.js';
import type { SheetCopy, SheetLayout } from '../layout/types.js';

/** The identity line printed on a roster copy, e.g. "姓名：张喆　班级：七(2)班　学号：20240101". */
export function nameLine(layout: SheetLayout, copy: SheetCopy): string | null {
  if (layout.identity.mode !== 'roster' || !copy.studentId) return null;
  const s = layout.identity.students.find((st) => st.id === copy.studentId);
  if (!s) throw new Error(`名单中没有学号为 ${copy.studentId} 的学生`);
  return [`姓名：${s.name}`, s.className ? `班级：${s.className}` : '', `学号：${s.studentNo ?? s.id}`].filter(Boolean).join('　');
}

/** Every copy to print: one per student and page of theirs for roster sheets, `count` blank copies otherwise. */
export function copiesFor(layout: SheetLayout, count = 1): SheetCopy[] {
  const pages = layout.pages.map((p) => p.page);
  if (layout.identity.mode === 'roster') {
    return layout.identity.students.flatMap((s) => studentPages(layout, s.id).map((p) => ({ sheetId: layout.sheetId, page: p.page, studentId: s.id })));
  }
  return Array.from({ length: count }, () => pages.map((page) => ({ sheetId: layout.sheetId, page }))).flat();
}

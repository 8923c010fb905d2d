// 作业 of the classic teacher (/homework): the teacher's own homework for the class, course and
// time range picked in the header (src/pages/Homework.tsx passes them as fixed filters), with
// completion, grading and accuracy; each opens on /homeworkDetails.
import type { RaRecord } from 'ra-core';
import { defineResource, lazyNamed } from '../define';

const OpenHomeworkButton = lazyNamed(() => import('./OpenHomework'), 'OpenHomeworkButton');

export const percent = (rate: unknown) => (typeof rate === 'number' ? `${(rate * 100).toFixed(1)}%` : '—');

/** A date and time as teachers write it: 11月24日 22:00 (year only when it is not this year's). */
export function timeLabel(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const year = d.getFullYear() === new Date().getFullYear() ? '' : `${d.getFullYear()}年`;
  return `${year}${d.getMonth() + 1}月${d.getDate()}日 ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export default defineResource({
  name: 'homeworks',
  label: '作业',
  endpoints: { kind: 'paged', list: '/api/minerva/v1.0/homeworks', idField: 'id' },
  fields: [
    { type: 'text', source: 'title', label: '作业', width: 320 },
    // Numbers read as text (left-aligned like the fractions and rates beside them).
    { type: 'computed', source: 'questionCount', label: '题数', render: (r: RaRecord) => String(r.questionCount) },
    { type: 'computed', source: 'submittedCount', label: '已提交/总人数', render: (r: RaRecord) => `${r.submittedCount}/${r.studentCount}` },
    { type: 'computed', source: 'gradedCount', label: '已批改', render: (r: RaRecord) => String(r.gradedCount) },
    { type: 'computed', source: 'accuracy', label: '正确率', render: (r: RaRecord) => percent(r.accuracy) },
    { type: 'computed', source: 'assignedAt', label: '布置时间', render: (r: RaRecord) => timeLabel(r.assignedAt) },
    { type: 'computed', source: 'dueAt', label: '截止时间', render: (r: RaRecord) => timeLabel(r.dueAt) },
  ],
  recordRepresentation: 'title',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  rowActions: [OpenHomeworkButton],
});

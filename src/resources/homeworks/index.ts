// 作业 of the classic teacher (/homework): the teacher's own homework for the class, course and
// time range picked in the header (src/pages/Homework.tsx passes them as fixed filters), with
// completion, grading and accuracy; each opens on /homeworkDetails.
import type { RaRecord } from 'ra-core';
import { dayTime, percent } from '../../domain/format';
import { defineResource, lazyNamed } from '../define';

const OpenHomeworkButton = lazyNamed(() => import('./OpenHomework'), 'OpenHomeworkButton');

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
    // Scheduled homework shows when students will first see it instead.
    { type: 'computed', source: 'assignedAt', label: '布置时间', render: (r: RaRecord) => (r.published === false && r.startAt ? `定时 ${dayTime(r.startAt)} 发布` : dayTime(r.assignedAt)) },
    { type: 'computed', source: 'dueAt', label: '截止时间', render: (r: RaRecord) => dayTime(r.dueAt) },
  ],
  recordRepresentation: 'title',
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  rowActions: [OpenHomeworkButton],
});

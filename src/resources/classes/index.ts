// 班级: the grade/class tree. Config for the data and the forms; the tree itself (grades with their
// classes, graduation) is the one view a table cannot express.
import { lazy } from 'react';
import { NAME_MAX_LENGTH } from '../../domain/school';
import { classLabel } from '../../filters/widgets';
import { defineResource } from '../define';

interface TreeGrade {
  graduatedYear: number | null;
  children: Record<string, unknown>[];
}

export default defineResource({
  name: 'classes',
  label: '班级',
  endpoints: {
    kind: 'list',
    list: '/api/vesta/class/treeClassBySchool',
    one: '/api/vesta/class/getClassInfo',
    create: '/api/vesta/class/add',
    update: '/api/vesta/class/update',
    remove: '/api/vesta/class/remove',
    idField: 'classId',
    rows: (data) =>
      ((data as TreeGrade[] | null) ?? []).flatMap((grade) =>
        grade.children.map((c) => ({ ...c, graduatedYear: grade.graduatedYear, fullName: classLabel(String(c.gradeName), String(c.className)) })),
      ),
  },
  fields: [
    { type: 'reference', source: 'gradeId', label: '年级', required: true, reference: 'grades', display: 'gradeName', optionText: 'gradeName', form: 'create', filter: { graduatedYear: null } },
    { type: 'text', source: 'className', label: '班级名称', required: true, maxLength: NAME_MAX_LENGTH, helperText: '例如：七(5)班' },
    { type: 'number', source: 'studentCount', label: '学生数', form: false },
  ],
  sort: { field: 'className', order: 'ASC' },
  perPage: 100,
  recordRepresentation: 'fullName',
  operations: { create: true, edit: true, delete: true, bulkDelete: false, show: true },
  listView: lazy(() => import('./ClassTree')),
});

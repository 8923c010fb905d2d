// 教师: the school's teachers. Config for the list, filters and forms; binding classes and courses,
// and the one-time passwords of new and reset accounts, are custom.
import type { RaRecord } from 'ra-core';
import { NAME_MAX_LENGTH } from '../../domain/school';
import { TEACHER_STATUS_NAMES, type TeacherStatus } from '../../domain/roles';
import { classLabel } from '../../filters/widgets';
import { defineResource, lazyNamed } from '../define';

// Custom parts load with the list, not with the shell.
const BindClassesButton = lazyNamed(() => import('./BindClasses'), 'BindClassesButton');
const ResetPasswordButton = lazyNamed(() => import('./Passwords'), 'ResetPasswordButton');
const CreatedAccount = lazyNamed(() => import('./Passwords'), 'CreatedAccount');
const TeacherRolesButton = lazyNamed(() => import('./Roles'), 'TeacherRolesButton');
const StatusButton = lazyNamed(() => import('./Status'), 'StatusButton');
const InitialPasswordsButton = lazyNamed(() => import('./InitialPasswords'), 'InitialPasswordsButton');

interface Binding {
  className: string;
  gradeName: string;
  courseName: string;
}

/** '七(1)班 数学、七(2)班 数学' */
export function bindingsText(record: RaRecord): string {
  return ((record.classes as Binding[] | undefined) ?? []).map((b) => `${classLabel(b.gradeName, b.className)} ${b.courseName}`).join('、');
}

export default defineResource({
  name: 'teachers',
  label: '教师',
  endpoints: {
    kind: 'paged',
    list: '/api/vesta/teacher/page',
    create: '/api/vesta/teacher/add',
    update: '/api/vesta/teacher/update',
    remove: '/api/vesta/teacher/remove',
    idField: 'teacherId',
  },
  fields: [
    { type: 'text', source: 'name', label: '姓名', required: true, maxLength: NAME_MAX_LENGTH },
    { type: 'phone', source: 'phone', label: '手机号', required: true, helperText: '同时作为登录账号' },
    { type: 'reference', source: 'job', label: '职务', reference: 'jobs', display: 'job', optionText: 'name' },
    { type: 'computed', source: 'classes', label: '任教班级与课程', render: bindingsText, form: false },
    { type: 'computed', source: 'status', label: '状态', render: (record) => TEACHER_STATUS_NAMES[(record.status ?? 0) as TeacherStatus], form: false },
  ],
  filters: [
    { type: 'search', source: 'keyword', label: '姓名/手机号', placeholder: '输入姓名或手机号' },
    { type: 'reference', source: 'job', label: '职务', reference: 'jobs', optionText: 'name' },
    { type: 'reference', source: 'gradeId', label: '年级', reference: 'grades', optionText: 'gradeName', filter: { graduatedYear: null } },
    { type: 'reference', source: 'classId', label: '班级', reference: 'classes', optionText: 'className', dependsOn: { source: 'gradeId', filter: 'gradeId' } },
    { type: 'select', source: 'status', label: '状态', choices: [0, 1, 2].map((value) => ({ value, label: TEACHER_STATUS_NAMES[value as TeacherStatus] })) },
  ],
  perPage: 20,
  recordRepresentation: (record) => `${record.name}（${record.phone}）`,
  operations: { create: true, edit: true, delete: true, bulkDelete: false },
  transfer: {
    template: { url: '/api/vesta/teacher/importTemplate', fileName: '教师导入模板.xlsx' },
    import: { url: '/api/vesta/teacher/importData' },
  },
  rowActions: [BindClassesButton, TeacherRolesButton, ResetPasswordButton, StatusButton],
  toolbarActions: [InitialPasswordsButton],
  afterCreate: CreatedAccount,
});

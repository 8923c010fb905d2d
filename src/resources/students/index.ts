// 学生: the school's students. Config, but for the bulk binding buttons, the terminal PIN
// (set or reset, shown once: TerminalPin.tsx) and the family links (FamilyLinks.tsx).
import type { RaRecord } from 'ra-core';
import { BINDING_STATUSES, STUDENT_STATUSES } from '../../domain/enums';
import { GENDERS, NAME_MAX_LENGTH, STUDENT_NO_PATTERN, TerminalPinState } from '../../domain/school';
import { defineResource, lazyNamed } from '../define';

// Custom parts load with the list, not with the shell.
const BindStudents = lazyNamed(() => import('./BindButtons'), 'BindStudents');
const UnbindStudents = lazyNamed(() => import('./BindButtons'), 'UnbindStudents');
const TerminalPinButton = lazyNamed(() => import('./TerminalPin'), 'TerminalPinButton');
const StatusChangeButton = lazyNamed(() => import('./StatusChange'), 'StatusChangeButton');
const FamilyLinkButton = lazyNamed(() => import('./FamilyLinks'), 'FamilyLinkButton');

/**
 * The 终端PIN column (never the PIN: the list only knows whether one is set). Quiet when set; a
 * student without one cannot send a named 学生心声, and a locked one needs a reset.
 */
function terminalPinStatus(record: RaRecord) {
  if (record.terminalPin === TerminalPinState.locked) return { label: '已锁定', tone: 'error' as const };
  if (record.terminalPin === TerminalPinState.set) return { label: '已设置', tone: 'default' as const };
  return { label: '未设置', tone: 'warning' as const };
}

export default defineResource({
  name: 'students',
  label: '学生',
  // The classic teacher reads the students of their own classes on /classManage.
  readOnlyRoles: ['teacher'],
  endpoints: {
    kind: 'paged',
    list: '/api/vesta/student/page',
    create: '/api/vesta/student/add',
    update: '/api/vesta/student/update',
    remove: '/api/vesta/student/remove',
    idField: 'studentId',
    sortParam: 'sort',
    removeManyField: 'studentIds',
  },
  fields: [
    { type: 'text', source: 'studentNo', label: '学号', required: true, sortable: true, pattern: { regex: STUDENT_NO_PATTERN, message: '学号格式不正确（字母、数字或“-”，最多32位）' } },
    { type: 'text', source: 'name', label: '姓名', required: true, sortable: true, maxLength: NAME_MAX_LENGTH },
    { type: 'select', source: 'gender', label: '性别', choices: GENDERS, sortable: true },
    { type: 'reference', source: 'gradeId', label: '年级', reference: 'grades', display: 'gradeName', optionText: 'gradeName', form: false },
    {
      type: 'reference',
      source: 'classId',
      label: '班级',
      required: true,
      reference: 'classes',
      display: 'className',
      optionText: 'fullName',
      sortable: true,
    },
    { type: 'phone', source: 'parentPhone', label: '家长手机号' },
    { type: 'date', source: 'birthDate', label: '出生日期', list: false, helperText: '未满14周岁的学生提交心声需监护人同意' },
    { type: 'select', source: 'status', label: '状态', choices: STUDENT_STATUSES, form: false, sortable: true },
    { type: 'select', source: 'bindingStatus', label: '绑定状态', choices: BINDING_STATUSES, form: false, sortable: true },
    { type: 'status', source: 'terminalPin', label: '终端PIN', status: terminalPinStatus, form: false },
  ],
  filters: [
    { type: 'reference', source: 'gradeId', label: '年级', reference: 'grades', optionText: 'gradeName', filter: { graduatedYear: null } },
    { type: 'reference', source: 'classId', label: '班级', reference: 'classes', optionText: 'className', dependsOn: { source: 'gradeId', filter: 'gradeId' } },
    { type: 'search', source: 'keyword', label: '姓名/学号', placeholder: '输入姓名或学号' },
    { type: 'select', source: 'status', label: '状态', choices: STUDENT_STATUSES },
    { type: 'select', source: 'bindingStatus', label: '绑定状态', choices: BINDING_STATUSES },
  ],
  sort: { field: 'studentNo', order: 'ASC' },
  perPage: 20,
  recordRepresentation: (record) => `${record.name}（${record.studentNo}）`,
  operations: { create: true, edit: true, delete: true, bulkDelete: true },
  transfer: {
    template: { url: '/api/vesta/student/importTemplate', fileName: '学生导入模板.xlsx' },
    import: { url: '/api/vesta/student/importData', askUpdate: true },
    export: { url: '/api/vesta/student/exportStudentData', name: '学生数据' },
  },
  rowActions: [TerminalPinButton, StatusChangeButton, FamilyLinkButton],
  bulkActions: [BindStudents, UnbindStudents],
});

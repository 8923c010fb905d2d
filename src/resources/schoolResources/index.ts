// 学校资源: lesson plans, papers and courseware shared in a school. The list is config; uploading
// with progress, preview of images and PDFs, and download are the custom parts.
import { RESOURCE_TYPES } from '../../domain/school';
import { defineResource, lazyNamed } from '../define';

// Custom parts load with the list, not with the shell.
const actions = () => import('./FileActions');
const PreviewButton = lazyNamed(actions, 'PreviewButton');
const DownloadButton = lazyNamed(actions, 'DownloadButton');
const DeleteIfAllowed = lazyNamed(actions, 'DeleteIfAllowed');
const UploadButton = lazyNamed(actions, 'UploadButton');

const TYPE_CHOICES = RESOURCE_TYPES.map((t) => ({ label: t, value: t }));
const ADMINS = ['schoolAdmin', 'mpSchoolAdmin'] as const;

export default defineResource({
  name: 'schoolResources',
  label: '资源',
  endpoints: { kind: 'paged', list: '/api/vesta/resource/page', remove: '/api/vesta/resource/remove', idField: 'resourceId' },
  fields: [
    { type: 'text', source: 'title', label: '标题' },
    { type: 'select', source: 'type', label: '类型', choices: TYPE_CHOICES },
    { type: 'text', source: 'gradeName', label: '年级' },
    { type: 'text', source: 'subjectName', label: '学科' },
    { type: 'fileSize', source: 'size', label: '大小' },
    { type: 'text', source: 'uploaderName', label: '上传者' },
    { type: 'date', source: 'createdAt', label: '上传时间' },
  ],
  filters: [
    { type: 'search', source: 'keyword', label: '标题', placeholder: '输入标题关键字' },
    { type: 'select', source: 'type', label: '类型', choices: TYPE_CHOICES },
    { type: 'reference', source: 'gradeId', label: '年级', reference: 'grades', optionText: 'gradeName', filter: { graduatedYear: null }, roles: ADMINS },
    { type: 'reference', source: 'subjectId', label: '学科', reference: 'subjects', optionText: 'subjectName', roles: [...ADMINS, 'mpTeacher'] },
    { type: 'select', source: 'mine', label: '范围', choices: [{ label: '我上传的', value: 'true' }] },
  ],
  perPage: 20,
  recordRepresentation: 'title',
  description: '支持 PDF、图片、Word、Excel、PowerPoint、MP4、MP3，单个文件不超过 50MB；图片和 PDF 可在线预览。',
  // Whoever uploaded a file, or a school admin, may delete it: the record says so (canDelete).
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  rowActions: [PreviewButton, DownloadButton, DeleteIfAllowed],
  toolbarActions: [UploadButton],
});

// School administration calls that are not CRUD on one record (docs/api-school.md): the class tree,
// graduation, teacher bindings and passwords, bulk binding, the overview board, templates and
// imports. They live on the dataProvider beside the resources, reached through useDataProvider.
import type { SchoolOverview, SchoolSettings, TerminalPin } from '../domain/school';
import type { HttpClient, UploadResult } from './http';

export interface ClassNode {
  id: number;
  classId: number;
  className: string;
  gradeId: number;
  gradeName: string;
  studentCount: number;
}
export interface GradeNode {
  gradeId: number;
  gradeName: string;
  level: number;
  graduatedYear: number | null;
  children: ClassNode[];
}
export interface ClassInfo extends ClassNode {
  graduatedYear: number | null;
  schoolName: string;
  boundCount: number;
  teachers: { teacherId: number; teacherName: string; courseId: number; courseName: string }[];
}
export interface SchoolCourse {
  courseId: number;
  courseName: string;
  subjectId: number;
  subjectName: string;
}
export interface OneTimePassword {
  teacherId: number;
  username: string;
  password: string;
}
export interface ImportCounts {
  total: number;
  created: number;
  updated: number;
  /** Rows of existing records left as they were (an import that does not update). */
  skipped?: number;
}
/** An import either wrote everything, or nothing and answered with the workbook marked up. */
export type ImportOutcome =
  | { ok: true; counts: ImportCounts; message: string }
  | { ok: false; errorCount: number; workbook: Blob; fileName: string; rows: { row: number; reason: string }[] };

export type Progress = (loaded: number, total: number) => void;

function importOutcome(result: UploadResult<ImportCounts>): ImportOutcome {
  if (result.kind === 'json') return { ok: true, counts: result.envelope.data, message: result.envelope.msg };
  return {
    ok: false,
    errorCount: Number(result.header('x-import-error-count') ?? 0),
    workbook: result.blob,
    fileName: result.fileName,
    rows: badRows(result.header('x-import-errors')),
  };
}

/** The first bad rows the server names (row number in the sheet, reason); none if the header is missing or unreadable. */
function badRows(header: string | null): { row: number; reason: string }[] {
  if (!header) return [];
  try {
    const list: unknown = JSON.parse(decodeURIComponent(header));
    if (!Array.isArray(list)) return [];
    return list.filter((e): e is [number, string] => Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'string').map(([row, reason]) => ({ row, reason }));
  } catch {
    return [];
  }
}

export function createSchoolApi(http: HttpClient) {
  return {
    classTree: (includeGraduated = false) => http.get<GradeNode[]>('/api/vesta/class/treeClassBySchool', { includeGraduated }),
    classInfo: (classId: number | string) => http.get<ClassInfo>('/api/vesta/class/getClassInfo', { classId }),
    graduateGrade: (gradeId: number, year: number) =>
      http.post<{ gradeId: number; gradeName: string; year: number; studentCount: number }>('/api/vesta/class/graduateGrade', { gradeId, year }),
    coursesInSchool: () => http.get<SchoolCourse[]>('/api/vesta/teaching/getSubjectInSchool'),
    bindClassCourse: (teacherId: number | string, bindings: { classId: number; courseId: number }[]) =>
      http.post<{ teacherId: number; added: number }>('/api/vesta/teaching/bindClassCourse', { teacherId, bindings }),
    removeTeacherFromClass: (teacherId: number | string, classId: number, courseId?: number) =>
      http.post<{ removed: number }>('/api/vesta/teaching/removeTeacherFromClass', { teacherId, classId, courseId }),
    resetPassword: (teacherId: number | string) => http.post<OneTimePassword>('/api/vesta/teacher/resetPassword', { teacherId }),
    /** A typed PIN, or none for a random one; the answer carries the PIN this once. */
    setTerminalPin: (studentId: number | string, pin?: string) => http.post<TerminalPin>('/api/vesta/student/terminalPin', { studentId, ...(pin ? { pin } : {}) }),
    setStudentBinding: (studentIds: (number | string)[], bindingStatus: 0 | 1) =>
      http.post<{ count: number }>('/api/wrongbook/v1.0/web/org/batchEnableStudentOrg', { studentIds, bindingStatus }),
    schoolOverview: () => http.get<SchoolOverview>('/api/vesta/school/overview'),
    schoolSettings: () => http.get<SchoolSettings>('/api/vesta/school/settings'),
    saveSchoolSettings: async (settings: Partial<Pick<SchoolSettings, 'scoreDisclosure' | 'timeZone'>>) =>
      (await http.request<Partial<Pick<SchoolSettings, 'scoreDisclosure' | 'timeZone'>>>('/api/vesta/school/settings', { method: 'PUT', body: settings })).data,
    /** Runs an import workbook; a refused one comes back as a file, not as an error. */
    /** `update` false: rows of records that already exist are skipped, not written over. */
    importWorkbook: async (url: string, file: File, onProgress?: Progress, update?: boolean): Promise<ImportOutcome> => {
      const body = new FormData();
      body.append('file', file, file.name);
      return importOutcome(await http.upload<ImportCounts>(url, { body, onProgress, query: update === undefined ? undefined : { update: update ? 1 : 0 } }));
    },
    uploadFile: async (url: string, file: File, fields: Record<string, string | number | undefined>, onProgress?: Progress) => {
      const body = new FormData();
      // Fields before the file: the server may stream the file straight to storage.
      for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== '') body.append(name, String(value));
      body.append('file', file, file.name);
      const result = await http.upload<Record<string, unknown>>(url, { body, onProgress });
      return result.kind === 'json' ? result.envelope.data : undefined;
    },
    fileBlob: (url: string, query: Record<string, string | number>) => http.blob(url, query),
    // Async like every dataProvider method: react-admin's proxy chains `.then` on each call.
    saveFile: async (blob: Blob, fileName: string) => http.save(blob, fileName),
  };
}

export type SchoolApi = ReturnType<typeof createSchoolApi>;

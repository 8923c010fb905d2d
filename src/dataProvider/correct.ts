// AI correction calls of the mini-program teacher (docs/api-correct.md): the task list, a task's
// progress and results, removing a task never submitted, and a task's report with its export;
// designing an answer sheet and printing it, creating a task, uploading its files one by one with
// progress, removing one and submitting the task; reviewing one result (its reading drawn over
// the scan, the teacher's points; an essay with the teacher's comment).
import type { Annotation, AssignedMarking, MarkerSetup, MarkingQuestion, MarkingSaved, MarkingSheet, RubricItem } from '../domain/marking';
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';
import type { TaskCoverage, TaskReport } from '../domain/correct';
import type { LectureSample, SampleCandidates } from '../domain/lecture';
import type { GroupDecision } from '../domain/answerGroups';

const BASE = '/api/wrongbook/v1.0/correct';

export interface CorrectTask {
  id: number;
  type: number;
  status: number;
  title: string;
  classId: number | null;
  className: string | null;
  failReason: string | null;
  createdAt: string;
  submittedAt: string | null;
  fileCount: number;
  /** Files read or failed. */
  doneCount: number;
  /** Results awaiting the teacher. */
  reviewCount: number;
  /** Results the teacher need not look at again. */
  gradedCount: number;
  /** Pages that could not be read. */
  failedCount: number;
  /** Enrolled students of the task's class with no page. */
  absentCount: number;
}

export interface CorrectResult {
  id: number;
  studentId: number | null;
  studentName: string | null;
  studentNo: string | null;
  studentKey: string | null;
  score: number | null;
  maxScore: number | null;
  needsReview: boolean;
  reviewedAt: string | null;
}

/** An uploaded file of a task; recognitionStatus 0 新建, 2 识别中, 3 已识别, 4 识别失败. */
export interface CorrectFile {
  id: number;
  fileName: string;
  size: number;
  studentId: number | null;
  recognitionStatus: number;
  error: string | null;
}

/** One entry of a task's answer key, by question number. */
export type AnswerKeyItem = { answer: string; points: number } | { blanks: string[][]; points: number } | { essay: true; points: number } | { manual: true; points: number };
export interface AnswerKey {
  multipleRule?: { missing: number; wrong: number };
  items: Record<string, AnswerKeyItem>;
}
export interface EssayBrief {
  title?: string;
  /** The whole writing prompt (材料和要求), when the teacher gives it. */
  prompt?: string;
  minChars?: number;
  fullMarks?: number;
}

export interface CorrectTaskDetail {
  task: {
    id: number;
    type: number;
    status: number;
    title: string;
    failReason: string | null;
    classId?: number | null;
    sheetId?: string | null;
    answerKey?: AnswerKey | null;
    questions?: { no: number; text?: string }[] | null;
    essayBrief?: EssayBrief | null;
  };
  progress: { files: number; done: number };
  files?: CorrectFile[];
  results: CorrectResult[];
  coverage?: TaskCoverage;
}

/** The sections of an answer sheet, as server/grading/layout/types.ts has them. */
export type SheetSection =
  | { kind: 'objective'; title: string; items: { no: number; type: 'single' | 'multiple' | 'judge'; options?: number }[] }
  | { kind: 'fill'; title: string; items: { no: number; blanks: number }[] }
  | { kind: 'short'; title: string; items: { no: number; heightMm: number }[] }
  | { kind: 'essay'; title: string; no: number; cells: number; columns?: number; prompt?: string; minChars?: number };
export interface CreateSheetRequest {
  title: string;
  paper: 'A4' | 'A3';
  identity: 'roster' | 'anonymous';
  digits?: number;
  classId?: number;
  sections: SheetSection[];
}
export interface CreatedSheet {
  sheetId: string;
  title: string;
  pages: number;
  copies: number;
}
/** The sheet of an exam for one class of it, and its key from the exam's questions (sheet/fromExam). */
export interface ExamSheet extends CreatedSheet {
  examTitle: string;
  className: string;
  answerKey: AnswerKey;
  /** Questions left to the teacher's review (worked answers), by number. */
  manual: number[];
  questionCount: number;
  fullMarks: number;
}
export interface CreateTaskRequest {
  type: 1 | 2 | 3;
  title: string;
  classId?: number;
  sheetId?: string;
  answerKey?: AnswerKey;
  questions?: { no: number; text?: string }[];
  essayBrief?: EssayBrief;
  /** The homework (type 1 or 3) or exam (type 3) whose answer records the results write. */
  homeworkId?: number;
  examId?: number;
}
export interface ClassStudent {
  id: number;
  name: string;
  studentNo: string;
}

/** One item of a graded result as the review screens show it (server/modules/correct/results.ts). */
export interface ReviewItem {
  no: number;
  given: string;
  expected?: string;
  score: number | null;
  max: number | null;
  needsReview: boolean;
  reasons: string[];
}
export interface ViewRect {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** Geometry to draw a result's reading over its scan (server/modules/correct/view.ts). */
export interface ViewPage {
  page: number;
  fileId: number | null;
  h: number[] | null;
  size: { w: number; h: number } | null;
  regions: { no: number; kind: string; rect: ViewRect }[];
  bubbles: { no: number; label: string; cx: number; cy: number; rx: number; ry: number; fill: number; state: string }[];
  fills: { no: number; box: number; rect: ViewRect; text: string; confidence: number; blank: boolean }[];
}
/** A sentence-level note of the essay engine (server/grading/essay/rubric.ts). */
export interface EssayNote {
  kind: 'typo' | 'repeat' | 'runon' | 'idiom' | 'rhetoric';
  sentence: number;
  excerpt: string;
  message: string;
  good: boolean;
}
export interface EssayDimension {
  key: 'content' | 'structure' | 'language' | 'length';
  name: string;
  score: number;
  max: number;
  comment: string;
}
/** The essay engine's output as stored in a result's detail (docs/api-correct.md). */
export interface EssayOutput {
  score: number;
  source: 'rubric' | 'rubric+llm';
  rubric: {
    score: number;
    fullMarks: number;
    charCount: number;
    dimensions: EssayDimension[];
    sentences: string[];
    notes: EssayNote[];
    comment: string;
    flags?: { kind: string; message: string }[];
  };
  llm?: { ok: true; review: { score: number; comment: string; suggestions: string[] } } | { ok: false; error: string };
}
export interface CorrectResultDetail {
  id: number;
  taskId: number;
  taskType: number;
  taskTitle: string;
  studentId: number | null;
  studentName: string | null;
  studentNo: string | null;
  studentKey: string | null;
  score: number | null;
  maxScore: number | null;
  needsReview: boolean;
  reviewedAt: string | null;
  review: Record<string, number> | null;
  result: {
    kind: 'sheet' | 'homework' | 'essay';
    items: ReviewItem[];
    detail: { text?: string; essay?: EssayOutput } & Record<string, unknown>;
    /** The uploaded file the work was read from (homework photos and essays). */
    fileId?: number;
    teacherComment?: string;
  };
  view: { pages: ViewPage[] };
  /** The markers' pens (网上阅卷) per question number. */
  annotations: Record<string, Annotation[]>;
}
export interface ReviewSaved {
  id: number;
  score: number | null;
  maxScore: number | null;
  needsReview: boolean;
  review: Record<string, number>;
  teacherComment?: string | null;
}

export function createCorrectApi(http: HttpClient) {
  return {
    correctTasks: (query: { current: number; size: number; type?: number }) => http.get<Page<CorrectTask>>(`${BASE}/task/page`, query),
    correctTaskDetail: (taskId: number) => http.get<CorrectTaskDetail>(`${BASE}/task/detail`, { taskId }),
    removeCorrectTask: (taskId: number) => http.post<null>(`${BASE}/task/remove`, { taskId }),
    correctReport: (taskId: number) => http.get<TaskReport>(`${BASE}/task/report`, { taskId }),
    createSheet: (body: CreateSheetRequest) => http.post<CreatedSheet>(`${BASE}/sheet/create`, body),
    sheetFromExam: (examId: number, classId: number) => http.post<ExamSheet>(`${BASE}/sheet/fromExam`, { examId, classId }, { silent: true }),
    /** The printable sheet (a class set is rendered in seconds, hence the long timeout). */
    downloadSheetPdf: (sheetId: string, title: string) =>
      http.download(`${BASE}/sheet/pdf`, { name: '答题卡', suffix: title, ext: 'pdf', query: { sheetId }, timeout: 180_000 }),
    /** 附家长查看二维码: a fresh family link per result's student, issued now (30 days unless `days`), audited. */
    issueFeedbackFamilyLinks: (taskId: number, resultIds: number[], days?: number) =>
      http.post<{ resultId: number; studentId: number; url: string; days: number }[]>(`${BASE}/task/familyLinks`, { taskId, resultIds, ...(days ? { days } : {}) }),
    createCorrectTask: (body: CreateTaskRequest) => http.post<{ id: number }>(`${BASE}/task/create`, body),
    /** One file per request, the fields before the file; progress as the browser sends it. */
    /** `replaces`: a page of the task this file takes the place of (a failed or misread one). */
    uploadCorrectFile: async (taskId: number, file: File, studentId: number | undefined, onProgress?: (loaded: number, total: number) => void, replaces?: number) => {
      const body = new FormData();
      body.append('taskId', String(taskId));
      if (studentId) body.append('studentId', String(studentId));
      if (replaces) body.append('replaces', String(replaces));
      body.append('file', file, file.name);
      const result = await http.upload<CorrectFile>(`${BASE}/task/upload`, { body, onProgress });
      return result.kind === 'json' ? result.envelope.data : undefined;
    },
    removeCorrectFile: (fileId: number) => http.post<null>(`${BASE}/task/removeFile`, { fileId }),
    /** Names the student of an uploaded, not yet submitted file (null: the name written on it decides). */
    setCorrectFileStudent: (fileId: number, studentId: number | null) =>
      http.post<{ id: number; studentId: number | null }>(`${BASE}/task/fileStudent`, { fileId, studentId }),
    submitCorrectTask: (taskId: number) => http.post<null>(`${BASE}/task/submit`, { taskId }),
    /** Hands a result whose page named no student to a student of the task's class. */
    assignCorrectResult: (resultId: number, studentId: number) =>
      http.post<{ resultId: number; studentId: number; studentName: string | null }>(`${BASE}/result/assign`, { resultId, studentId }),
    /** The enrolled students of a class the teacher teaches, by student number. */
    classStudents: async (classId: number) =>
      (await http.get<Page<ClassStudent>>('/api/vesta/student/page', { classId, status: 0, current: 1, size: 500 })).records,
    correctResult: (resultId: number) => http.get<CorrectResultDetail>(`${BASE}/result/detail`, { resultId }),
    /** Silent: the review screen shows the server's reason beside the item. */
    reviewCorrectResult: (resultId: number, items: { no: number; score: number }[]) => http.post<ReviewSaved>(`${BASE}/result/review`, { resultId, items }, { silent: true }),
    /** 相同作答: the same points for every paper of an answer group, in one call (silent: the panel shows the reason). */
    decideAnswerGroup: (body: { taskId: number; no: number; resultIds: number[]; score: number }) => http.post<GroupDecision>(`${BASE}/answerGroups/decide`, body, { silent: true }),
    /** Undo for one paper of a group: the points it had before (null: the machine's). */
    restoreGroupPaper: (body: { taskId: number; no: number; resultId: number; score: number | null }) => http.post<GroupDecision>(`${BASE}/answerGroups/restore`, body),
    /** An essay's review: the teacher's points and, optionally, a comment to the student ('' removes it). */
    reviewEssayResult: (body: { resultId: number; items: { no: number; score: number }[]; comment?: string }) => http.post<ReviewSaved>(`${BASE}/result/review`, body),
    correctFile: (fileId: number) => http.blob(`${BASE}/file/view`, { fileId }),
    /** 讲评样例 (src/domain/lecture.ts): the picked samples of every question, labelled, without names. */
    lectureSamples: (taskId: number) => http.get<{ samples: LectureSample[] }>(`${BASE}/lecture/samples`, { taskId }),
    /** The papers with a crop of question `no`, most points first, to pick from. */
    lectureCandidates: (taskId: number, no: number) => http.get<SampleCandidates>(`${BASE}/lecture/candidates`, { taskId, no }),
    saveLectureSamples: (taskId: number, no: number, resultIds: number[]) => http.post<{ samples: LectureSample[] }>(`${BASE}/lecture/samples`, { taskId, no, resultIds }),
    /** 网上阅卷: the hand-marked questions of a task, one question's papers, a score, full marks. */
    markingQuestions: (taskId: number) => http.get<MarkingQuestion[]>(`${BASE}/marking/questions`, { taskId }),
    markingSheet: (taskId: number, no: number) => http.get<MarkingSheet>(`${BASE}/marking/question`, { taskId, no }),
    /** Silent: the marking screen shows the server's reason beside the score pad. */
    /** The whole list of a paper's marks for one question; an empty list clears them. */
    saveAnnotations: (body: { taskId: number; no: number; resultId: number; marks: Annotation[] }) =>
      http.post<{ resultId: number; no: number; marks: Annotation[] }>(`${BASE}/marking/annotations`, body, { silent: true }),
    saveMarkingScore: (body: { taskId: number; no: number; resultId: number; score: number; arbitrate?: boolean }) => http.post<MarkingSaved>(`${BASE}/marking/score`, body, { silent: true }),
    saveRubricItem: (body: { taskId: number; no: number; id?: number; label: string; points: number }) =>
      http.post<{ item: RubricItem; rescored: number }>(`${BASE}/marking/rubric/save`, body),
    removeRubricItem: (taskId: number, id: number) => http.post<{ id: number; rescored: number }>(`${BASE}/marking/rubric/remove`, { taskId, id }),
    applyRubricItem: (body: { taskId: number; resultId: number; itemId: number; applied: boolean }) => http.post<MarkingSaved>(`${BASE}/marking/rubric/apply`, body, { silent: true }),
    setMarkingSettings: (body: { taskId: number; showNames: boolean }) => http.post<{ showNames: boolean }>(`${BASE}/marking/settings`, body),
    markerSetup: (taskId: number) => http.get<MarkerSetup>(`${BASE}/marking/markers`, { taskId }),
    saveMarkers: (body: { taskId: number; no: number; teacherIds: number[]; double: number | null }) =>
      http.post<{ no: number; teacherIds: number[]; double: number | null }>(`${BASE}/marking/markers`, body),
    /** Tasks other teachers gave the caller questions of (AI批改's 我的阅卷). */
    assignedMarking: () => http.get<AssignedMarking[]>(`${BASE}/marking/assigned`),
    setMarkingFullMarks: (body: { taskId: number; no: number; points: number }) => http.post<{ no: number; fullMarks: number }>(`${BASE}/marking/fullMarks`, body),
    /** 反馈单 (answer sheets): the class's PDF, one page per student, or one student's page with resultId. */
    correctFeedbackPdf: (taskId: number, resultId?: number, familyQr = false) =>
      familyQr
        ? // 附家长查看二维码: fresh family links are issued for the print, so it is a POST.
          http.download(`${BASE}/task/feedback`, { method: 'POST', body: { taskId, resultId, familyQr: true }, name: '反馈单', ext: 'pdf', serverName: true, timeout: 180_000 })
        : http.download(`${BASE}/task/feedback`, { name: '反馈单', ext: 'pdf', query: { taskId, resultId }, serverName: true, timeout: 180_000 }),
    exportCorrectReport: (taskId: number, title: string) =>
      http.download(`${BASE}/task/report/export`, { name: '批改报告', suffix: title, ext: 'xlsx', query: { taskId }, timeout: 120_000 }),
  };
}

export type CorrectApi = ReturnType<typeof createCorrectApi>;

// Teaching content calls of the teacher (docs/api-content.md, service minerva): the books a grade may
// be given, a book page by page, the teacher's homework and assigning it to several classes.
import type { Page } from '../domain/envelope';
import type { HttpClient } from './http';
import type { HomeworkKeyItem } from '../domain/content';

export interface BookSummary {
  id: number;
  title: string;
  subjectId: number;
  subjectName: string;
  gradeLevel: number;
  term: number;
  edition: string;
  courseId: number;
  classIds: number[];
}
export interface QuestionOption {
  key: string;
  text: string;
}
export interface PageQuestion {
  id: number;
  type: number;
  stem: string;
  options: QuestionOption[] | null;
  no: number;
  points: number;
}
export interface BookPage {
  id: number;
  pageNo: number;
  questions: PageQuestion[];
}
export interface BookDetail {
  id: number;
  title: string;
  chapters: { id: number; title: string; sections: { id: number; title: string; pages: BookPage[] }[] }[];
}
export interface HomeworkRecord {
  id: number;
  batchId: string;
  title: string;
  classId: number;
  className: string;
  courseName: string;
  bookTitle: string | null;
  assignedAt: string;
  dueAt: string;
  questionCount: number;
  studentCount: number;
  submittedCount: number;
  /** Submitted minus those awaiting the teacher's review. */
  gradedCount: number;
  /** Hand-ins still awaiting the teacher's review. */
  pendingReview: number;
  accuracy: number | null;
  scoreRate: number | null;
  /** The teacher's note to the students, or null. */
  note: string | null;
  /** Scheduled publishing time, or null (published when assigned). */
  startAt: string | null;
  /** Students can see it (its publishing time has come). */
  published: boolean;
  /** Given as a photo or PDF with its own answer key: that file (homeworkFile). */
  fileId: number | null;
}
/** A student of the homework's class: handed in or not, and how they did. */
export interface HomeworkStudent {
  studentId: number;
  name: string;
  studentNo: string;
  submitted: boolean;
  score: number | null;
  maxScore: number | null;
  answered: number | null;
  correct: number | null;
  accuracy: number | null;
  /** The pages she handed in as photos or scans (AI批改 tasks linked to the homework), in upload order. */
  pages: { fileId: number; taskId: number; name: string; mime: string }[];
}
/** A question of the homework as frozen when assigned, with the class's results on it. */
export interface HomeworkQuestion {
  no: string;
  points: number;
  question: { id: number; type: number; stem: string; options: QuestionOption[] | null; answer: string; knowledgePoints: { id: number; name: string }[] };
  answered: number;
  correct: number;
  accuracy: number | null;
  scoreRate: number | null;
  /** The most common answers the class gave, and whether each was marked right. */
  answers: { answer: string; count: number; correct: boolean }[];
}
export interface HomeworkDetail extends HomeworkRecord {
  gradeName: string;
  students: HomeworkStudent[];
  questions: HomeworkQuestion[];
}
/** 未提交名单: the students who have not handed a homework in, to remind (docs/api-content.md). */
export interface MissingList extends HomeworkRecord {
  gradeName: string;
  /** The deadline has passed. */
  overdue: boolean;
  students: { studentId: number; studentNo: string; name: string }[];
}
export interface AssignRequest {
  courseId: number;
  classIds: number[];
  dueAt: string;
  /** Book pages (both), or else chosen bank questions. */
  bookId?: number;
  pageIds?: number[];
  questionIds?: number[];
  /** Or a photo/PDF of the assignment (uploadHomeworkFile) with its answer key. */
  fileId?: number;
  key?: HomeworkKeyItem[];
  title?: string;
  /** A note to the students (up to 200 characters). */
  note?: string;
  /** Scheduled publishing: students see it from this time (ISO), before the deadline. */
  startAt?: string;
  /** Assign even though a class already has some of these pages (otherwise 409 asks first). */
  confirmDuplicate?: boolean;
}
/** Questions handed from the paper builder's 试题篮 to 布置作业 (router state), in the basket's order. */
export interface BasketHomework {
  title: string;
  questions: { id: number; type: number; stem: string; options: QuestionOption[] | null }[];
}
/** An uploaded photo or PDF of an assignment, not yet given. */
export interface HomeworkFile {
  id: number;
  fileName: string;
  mime: string;
  size: number;
}
export interface AssignResult {
  batchId: string;
  homeworks: { id: number; classId: number }[];
  title: string;
  questionCount: number;
}

const BASE = '/api/minerva/v1.0';

export function createMinervaApi(http: HttpClient) {
  return {
    assignableBooks: (gradeId: number | string, courseId?: number | string) =>
      http.get<BookSummary[]>(`${BASE}/exercisebook/getAvailableExerciseBookByGrade`, { gradeId, courseId: courseId || undefined }),
    bookDetail: (bookId: number | string) => http.get<BookDetail>(`${BASE}/exercisebooks/${Number(bookId)}`),
    homeworkPage: (query: { classId?: number | string; courseId?: number | string; current?: number; size?: number }) =>
      http.get<Page<HomeworkRecord>>(`${BASE}/homeworks`, {
        classId: query.classId || undefined,
        courseId: query.courseId || undefined,
        current: query.current ?? 1,
        size: query.size ?? 20,
      }),
    /** Silent: the screen shows the refusal itself, and asks on 409 (the same pages again). */
    assignHomework: (body: AssignRequest) => http.post<AssignResult>(`${BASE}/homeworks`, body, { silent: true }),
    /** The assignment's photo or PDF, before it is given with its key (bounded by the server: JPG, PNG, PDF, 10 MB). */
    uploadHomeworkFile: async (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      const result = await http.upload<HomeworkFile>(`${BASE}/homework-files`, { body });
      if (result.kind !== 'json') throw new Error('上传失败，请稍后重试');
      return result.envelope.data;
    },
    /** The assignment's file, fetched with the teacher's session (for an <img> or to open). */
    homeworkFile: (fileId: number) => http.blob(`${BASE}/homework-files/${Number(fileId)}`, {}),
    /** A new title, deadline (still ahead) or note (empty takes it away); answers the detail as changed. */
    updateHomework: async (homeworkId: number, body: { title?: string; dueAt?: string; note?: string; startAt?: string }) =>
      (await http.request<HomeworkDetail>(`${BASE}/homeworks/${Number(homeworkId)}`, { method: 'PUT', body })).data,
    /** Withdraw: only while nobody has handed it in (409 otherwise). */
    withdrawHomework: async (homeworkId: number) => {
      await http.request<null>(`${BASE}/homeworks/${Number(homeworkId)}`, { method: 'DELETE' });
    },
    homeworkDetail: (homeworkId: number | string) => http.get<HomeworkDetail>(`${BASE}/homeworks/${Number(homeworkId)}`),
    /** The detail as an .xlsx (概况, 学生, 题目), saved as 作业详情_{time}.xlsx. */
    exportHomework: (homeworkId: number | string) => http.download(`${BASE}/homeworks/${Number(homeworkId)}/export`, { name: '作业详情', ext: 'xlsx' }),
    missingList: (homeworkId: number | string) => http.get<MissingList>(`${BASE}/homeworks/${Number(homeworkId)}/missing`),
    /** 未提交名单 as an .xlsx (学号, 姓名, 班级, 作业, 截止时间). */
    exportMissing: (homeworkId: number | string) => http.download(`${BASE}/homeworks/${Number(homeworkId)}/missing/export`, { name: '未提交名单', ext: 'xlsx' }),
  };
}

export type MinervaApi = ReturnType<typeof createMinervaApi>;

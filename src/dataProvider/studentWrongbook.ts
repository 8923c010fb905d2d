// The student wrong-answer book (docs/api-wrongbook.md): a class's students with wrong-question
// counts, one student's wrong questions by knowledge point, and the teacher's mark on one.
import type { HttpClient } from './http';

const BASE = '/api/wrongbook/v1.0/web/student';

export interface WrongbookStudent {
  studentId: number;
  name: string;
  studentNo: string;
  wrongCount: number;
  wrongTimes: number;
  unmasteredCount: number;
  consolidatingCount: number;
  masteredCount: number;
}

export interface WrongQuestion {
  questionId: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  correctAnswer: string;
  studentAnswer: string | null;
  timesWrong: number;
  lastWrongAt: string;
  mastery: number;
  cause: number | null;
}

export interface WrongbookDetail {
  student: { id: number; name: string; studentNo: string; className: string; gradeName: string };
  courseName: string;
  term: string;
  summary: { wrongCount: number; unmasteredCount: number; consolidatingCount: number; masteredCount: number };
  weeks: { week: string; answered: number; correct: number; wrong: number }[];
  points: { knowledgePointId: number | null; name: string; questions: WrongQuestion[] }[];
}

export interface WrongMark {
  questionId: number;
  timesWrong?: number;
  mastery: number | null;
  cause: number | null;
}

export function createStudentWrongbookApi(http: HttpClient) {
  return {
    wrongbookStudents: (classId: string | number, courseId: string | number) =>
      http.get<{ term: string; courseName: string; students: WrongbookStudent[] }>(`${BASE}/list`, { classId, courseId }),
    wrongbookStudent: (studentId: string | number, courseId: string | number) => http.get<WrongbookDetail>(`${BASE}/detail`, { studentId, courseId }),
    markWrongQuestion: (body: { studentId: number; questionId: number; courseId: number; cause?: number | null; mastery?: number }) =>
      http.post<WrongMark>(`${BASE}/mark`, body),
    /** The student's printable 错题本 (未掌握 questions, room to redo, answers last), named by the server. */
    downloadStudentWrongbookPdf: (studentId: number, courseId: number) =>
      http.download(`${BASE}/pdf`, { name: '错题本', ext: 'pdf', query: { studentId, courseId }, serverName: true, timeout: 120_000 }),
  };
}

export type StudentWrongbookApi = ReturnType<typeof createStudentWrongbookApi>;

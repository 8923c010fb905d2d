// 错题组卷 calls of the teacher (docs/api-volume-paper.md, service wrongbook): the class's
// most-missed questions, the preview of a paper and its PDF (downloaded), and its answer sheet.
import type { HttpClient } from './http';

const BASE = '/api/wrongbook/v1.0/web/volumePaper';

export interface VolumeCandidate {
  id: number;
  type: number;
  typeName: string;
  stem: string;
  difficulty: number;
  answered: number;
  wrong: number;
}
export type VolumeMode = 'class' | 'personal';
export interface VolumeInput {
  classId: number;
  courseId: number;
  questionIds: number[];
  mode: VolumeMode;
  variants: number;
  scanIds?: number[];
  /** PDF only: print each student's 家长查看 QR code (issues the links). */
  familyQr?: boolean;
}
export interface VolumePreview {
  title: string;
  mode: VolumeMode;
  className: string;
  itemCount: number;
  questions: {
    id: number;
    no: number;
    type: number;
    typeName: string;
    stem: string;
    difficulty: number;
    answered: number;
    wrong: number;
    scanStudents: number;
    students: number | null;
    similar: { id: number; no: number; stem: string; difficulty: number }[];
  }[];
  students: { id: number; name: string; studentNo: string; count: number }[];
  studentsWithout: number;
}
export interface VolumeSheet {
  sheetId: string;
  title: string;
  pages: number;
  copies: number;
  questionCount: number;
  answerKey: { items: Record<string, { points: number }> };
  manual: number[];
}

/** The custom homework a paper's grading task links to, so its results are recorded. */
export interface VolumeHomework {
  homeworkId: number;
  homeworkTitle: string;
  reused: boolean;
  sheetId: string;
  title: string;
  answerKey: VolumeSheet['answerKey'];
  questionCount: number;
}

export function createVolumePaperApi(http: HttpClient) {
  return {
    volumeCandidates: (classId: number, courseId: number) =>
      http.get<{ className: string; courseName: string; list: VolumeCandidate[] }>(`${BASE}/candidates`, { classId, courseId }),
    volumePreview: (body: VolumeInput) => http.post<VolumePreview>(`${BASE}/preview`, body),
    volumeSheet: (body: VolumeInput) => http.post<VolumeSheet>(`${BASE}/sheet`, body),
    volumeHomework: (body: VolumeInput) => http.post<VolumeHomework>(`${BASE}/homework`, body),
    /** Downloads the PDF; resolves with the saved file name. */
    volumePdf: (body: VolumeInput, suffix: string) =>
      http.download(`${BASE}/pdf`, { method: 'POST', body, name: '错题卷', suffix, ext: 'pdf', timeout: 120000 }),
  };
}

export type VolumePaperApi = ReturnType<typeof createVolumePaperApi>;

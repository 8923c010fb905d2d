// 组卷 calls of the teacher (docs/api-content.md, service minerva): knowledge points, the question
// bank search, the teacher's papers, and a paper's printable PDF with its answer sheet.
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';
import type { PaperDetail, PaperSummary, QuestionView as BankQuestion } from '../domain/questionBank';

export type { BankQuestion, PaperDetail, PaperSummary };

export interface PointNode {
  id: number;
  name: string;
  children: PointNode[];
}
export interface BankQuery {
  subjectId: number | string;
  gradeLevel?: number;
  knowledgePointId?: number;
  type?: number;
  difficulty?: number;
  keyword?: string;
  current?: number;
  size?: number;
}
export interface PaperInput {
  title: string;
  subjectId: number;
  gradeLevel: number;
  durationMinutes: number;
  sections: { title: string; questions: { questionId: number; points: number }[] }[];
}
export type PaperSize = 'A4' | 'A3';

const BASE = '/api/minerva/v1.0';

/** Where a paper's PDF is served; also what the print preview is given. */
export const paperPdfUrl = (paperId: number | string, size: PaperSize) => `${BASE}/papers/${Number(paperId)}/pdf?paper=${size}`;

export function createPaperApi(http: HttpClient) {
  return {
    knowledgePointTree: (subjectId: number | string, stage: number) => http.get<PointNode[]>(`${BASE}/knowledge-points`, { subjectId, stage }),
    bankQuestions: (q: BankQuery) =>
      http.get<Page<BankQuestion>>(`${BASE}/questions`, {
        subjectId: q.subjectId,
        gradeLevel: q.gradeLevel,
        knowledgePointId: q.knowledgePointId,
        type: q.type,
        difficulty: q.difficulty,
        keyword: q.keyword?.trim() || undefined,
        current: q.current ?? 1,
        size: q.size ?? 10,
      }),
    myPapers: (q: { subjectId?: number | string; gradeLevel?: number; current?: number; size?: number }) =>
      http.get<Page<PaperSummary>>(`${BASE}/papers`, { subjectId: q.subjectId || undefined, gradeLevel: q.gradeLevel, current: q.current ?? 1, size: q.size ?? 20 }),
    paper: (paperId: number | string) => http.get<PaperDetail>(`${BASE}/papers/${Number(paperId)}`),
    createPaper: (body: PaperInput) => http.post<PaperDetail>(`${BASE}/papers`, body),
    updatePaper: async (paperId: number, body: PaperInput) => (await http.request<PaperDetail>(`${BASE}/papers/${paperId}`, { method: 'PUT', body })).data,
    deletePaper: async (paperId: number) => {
      await http.request<null>(`${BASE}/papers/${paperId}`, { method: 'DELETE' });
    },
    /** Bytes of a same-origin printable (the paper PDF, a resource file), fetched with the session. */
    printable: (path: string, query: Record<string, string>) => http.blob(path, query),
    // Async like every dataProvider method: react-admin expects a promise from each call.
    saveBlob: async (blob: Blob, fileName: string) => http.save(blob, fileName),
  };
}

export type PaperApi = ReturnType<typeof createPaperApi>;

// Exercise-book editing calls of the minerva service (docs/api-content.md): a book page by page,
// and the editor's question writes. Reached through useDataProvider<AppDataProvider>().
import type { HttpClient } from './http';

/** A sub-question of a 综合: shares its parent's knowledge points. */
export interface SubQuestion {
  id: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  answer: string;
  analysis: string | null;
  difficulty: number;
  points: number;
}
export type SubQuestionInput = Omit<SubQuestion, 'id' | 'analysis' | 'options'> & { analysis?: string; options?: { key: string; text: string }[] };

export interface BookQuestion {
  id: number;
  type: number;
  stem: string;
  options: { key: string; text: string }[] | null;
  answer: string;
  analysis: string | null;
  difficulty: number;
  points: number;
  knowledgePoints: { id: number; name: string }[];
  source?: string | null;
  children: SubQuestion[];
  pageId: number;
  no: number;
}
export interface BookPage {
  id: number;
  pageNo: number;
  questions: BookQuestion[];
}
export interface BookDetail {
  id: number;
  title: string;
  subjectId: number;
  /** Whether the caller may change it: a school's part-timer only reads the platform's shared books. */
  editable: boolean;
  chapters: { id: number; title: string; sections: { id: number; title: string; pages: BookPage[] }[] }[];
}
export interface QuestionInput {
  type: number;
  stem: string;
  options?: { key: string; text: string }[] | null;
  answer: string;
  analysis?: string;
  difficulty: number;
  points: number;
  knowledgePointIds: number[];
  /** Only for 综合. */
  children?: SubQuestionInput[];
}
export interface KnowledgePoint {
  id: number;
  name: string;
  children: KnowledgePoint[];
}

const BASE = '/api/minerva/v1.0/exercisebooks';

async function send<T>(http: HttpClient, method: 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> {
  return (await http.request<T>(url, { method, body })).data;
}

export function createWorkbookApi(http: HttpClient) {
  return {
    workbook: (bookId: number | string) => http.get<BookDetail>(`${BASE}/${bookId}`),
    addBookQuestion: (bookId: number | string, pageId: number, question: QuestionInput) =>
      http.post<BookQuestion>(`${BASE}/${bookId}/pages/${pageId}/questions`, { question }),
    updateBookQuestion: (bookId: number | string, questionId: number, question: QuestionInput) =>
      send<BookQuestion>(http, 'PUT', `${BASE}/${bookId}/questions/${questionId}`, { question }),
    reorderBookPage: (bookId: number | string, pageId: number, questionIds: number[]) =>
      send<{ questionId: number; no: number }[]>(http, 'PUT', `${BASE}/${bookId}/pages/${pageId}/order`, { questionIds }),
    deleteBookQuestion: (bookId: number | string, questionId: number) => send<null>(http, 'DELETE', `${BASE}/${bookId}/questions/${questionId}`),
    knowledgePoints: (subjectId: number) => http.get<KnowledgePoint[]>('/api/minerva/v1.0/knowledge-points', { subjectId }),
  };
}

export type WorkbookApi = ReturnType<typeof createWorkbookApi>;

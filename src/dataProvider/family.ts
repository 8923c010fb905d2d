// 家长查看链接 and 复核申请 (docs/api-family.md): a student's family links (issue, list, revoke) and
// the regrade requests on a piece of work with the teacher's answer.
import type { FamilyLinkOptions, FamilyLinkRow, IssuedFamilyLink, RegradeRow } from '../domain/family';
import type { HttpClient } from './http';

const BASE = '/api/family/v1.0';

/** Exactly one of them: the work whose requests are read. */
export type RegradeWork = { taskId: number } | { homeworkId: number } | { examId: number };

export interface FamilyApi {
  familyLinks(studentId: number | string): Promise<FamilyLinkOptions>;
  issueFamilyLink(body: { studentId: number | string; courseId?: number; label?: string; days?: number }): Promise<IssuedFamilyLink>;
  revokeFamilyLink(linkId: number): Promise<FamilyLinkRow>;
  regrades(work: RegradeWork): Promise<{ records: RegradeRow[]; open: number }>;
  answerRegrade(regradeId: number, answer: string): Promise<RegradeRow>;
}

export function createFamilyApi(http: HttpClient): FamilyApi {
  return {
    familyLinks: (studentId) => http.get<FamilyLinkOptions>(`${BASE}/links`, { studentId: String(studentId) }),
    issueFamilyLink: (body) => http.post<IssuedFamilyLink>(`${BASE}/links`, { ...body, studentId: Number(body.studentId) }),
    revokeFamilyLink: (linkId) => http.post<FamilyLinkRow>(`${BASE}/links/${linkId}/revoke`),
    regrades: (work) => http.get<{ records: RegradeRow[]; open: number }>(`${BASE}/regrades`, Object.fromEntries(Object.entries(work).map(([k, v]) => [k, String(v)]))),
    answerRegrade: (regradeId, answer) => http.post<RegradeRow>(`${BASE}/regrades/${regradeId}/answer`, { answer }),
  };
}

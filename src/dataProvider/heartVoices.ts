// 学生心声 (docs/api-heart-voices.md): the psychology teacher's messages, follow-up, counts and
// notices; the school admin's read log and guardian consents; the principal's notices.
import type { HttpClient } from './http';
import type { Page } from '../domain/envelope';

const BASE = '/api/heart/v1';

export interface HeartPlace {
  gradeId?: string | number;
  classId?: string | number;
}

export interface HeartVoiceFilter extends HeartPlace {
  current: number;
  size: number;
  keyword?: string;
  status?: number;
  level?: number;
}

export interface HeartVoiceRow {
  id: number;
  createdAt: string;
  category: number;
  mood: number | null;
  anonymous: boolean;
  /** Only for a named message. */
  studentName: string | null;
  gradeName: string | null;
  className: string | null;
  suggestedLevel: number;
  riskTypes: string[];
  confirmedLevel: number | null;
  status: number;
  pinned: boolean;
}

export interface HeartFollowUp {
  id: number;
  kind: number;
  note: string | null;
  userName: string;
  createdAt: string;
}

export interface HeartVoice extends HeartVoiceRow {
  content: string | null;
  handledAt: string | null;
  purgedAt: string | null;
  followUps: HeartFollowUp[];
}

export interface HeartNotice {
  id: number;
  voiceId: number | null;
  kind: number;
  text: string;
  createdAt: string;
}

export interface HeartRead {
  id: number;
  createdAt: string;
  readerName: string;
  action: number;
  voiceId: number;
  reason: string | null;
}

export interface GuardianConsent {
  studentId: number;
  name: string;
  studentNo: string;
  className: string | null;
  birthDate: string | null;
  underAge: boolean;
  guardianName: string | null;
  consentedOn: string | null;
}

const place = (p: HeartPlace) => ({ gradeId: p.gradeId || undefined, classId: p.classId || undefined });

export function createHeartVoiceApi(http: HttpClient) {
  return {
    heartVoices: (f: HeartVoiceFilter) =>
      http.get<Page<HeartVoiceRow>>(`${BASE}/voices`, { ...place(f), current: f.current, size: f.size, keyword: f.keyword || undefined, status: f.status, level: f.level }),
    /** `visit` names one opening of the page: the read log keeps one row per visit, however often it reloads. */
    heartVoice: (id: number, visit?: string) => http.get<HeartVoice>(`${BASE}/voices/${id}`, visit ? { visit } : undefined),
    confirmHeartLevel: (id: number, level: number) => http.post(`${BASE}/voices/${id}/level`, { level }),
    addHeartFollowUp: (id: number, kind: number, note: string) => http.post(`${BASE}/voices/${id}/followUps`, { kind, note }),
    revealHeartWriter: (id: number, reason: string) =>
      http.post<{ studentName: string; studentNo: string; className: string | null; pinVerified: boolean }>(`${BASE}/voices/${id}/reveal`, { reason }),
    /** Every week of the window; `values` null where a line had no message that week, `counts` the messages behind each point. */
    heartMood: (p: HeartPlace) => http.get<{ weeks: string[]; series: { name: string; values: (number | null)[]; counts: number[] }[] }>(`${BASE}/mood`, place(p)),
    exportHeartCounts: (p: HeartPlace) => http.download(`${BASE}/export`, { name: '学生心声统计', ext: 'xlsx', query: place(p) }),
    heartNotices: () => http.get<Page<HeartNotice>>(`${BASE}/notices`),
    markHeartNoticesSeen: (ids: number[]) => http.post(`${BASE}/notices/seen`, { ids }),
    /** Open 高危 cases of the school (counts only): all, those unconfirmed, those unconfirmed for over 48 h. */
    heartOpenHighRisk: () => http.get<{ open: number; unconfirmed: number; overdue: number }>(`${BASE}/openHighRisk`),
    heartReads: (current: number, size: number) => http.get<Page<HeartRead>>(`${BASE}/reads`, { current, size }),
    guardianConsents: (current: number, size: number, keyword?: string, classId?: number) =>
      http.get<Page<GuardianConsent>>(`${BASE}/consents`, { current, size, keyword: keyword || undefined, classId }),
    recordGuardianConsent: (studentId: number, guardianName: string, consentedOn: string) => http.post(`${BASE}/consents`, { studentId, guardianName, consentedOn }),
  };
}

export type HeartVoiceApi = ReturnType<typeof createHeartVoiceApi>;

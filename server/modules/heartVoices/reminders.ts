// A suspected 高危 message nobody has confirmed: after 24 h the school's psychology teachers are
// reminded, after 48 h its principals are told. Each step is claimed and its notices written in one
// statement (the message's reminded_at / escalated_at is set only where still empty), so it happens
// once, whichever process or restart gets there first; it runs on a timer and again whenever
// notices are read, so nobody reads a list that is missing a reminder that is due.
import { sql, type SQL } from 'drizzle-orm';
import { RiskLevel, VoiceStatus } from '../../../src/domain/heartVoices';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { holders, NoticeKind } from './noticeKinds';

export const REMIND_AFTER_HOURS = 24;
export const ESCALATE_AFTER_HOURS = 48;

/** Suspected high risk, not confirmed (nor purged): what the reminders are about. */
const UNCONFIRMED = sql`confirmed_level IS NULL AND suggested_level = ${RiskLevel.high} AND purged_at IS NULL`;

async function step(db: Db, column: SQL, hours: number, role: string, kind: number, text: string, schoolId?: number): Promise<number> {
  const [{ n }] = await rows<{ n: number }>(db, sql`
    WITH due AS (
      UPDATE heart_voices SET ${column} = now()
       WHERE ${UNCONFIRMED} AND ${column} IS NULL AND created_at <= now() - make_interval(hours => ${hours})
             ${schoolId === undefined ? sql`` : sql`AND school_id = ${schoolId}`}
      RETURNING id, school_id
    ),
    sent AS (
      INSERT INTO heart_notices (user_id, voice_id, kind, text)
      SELECT h.id, due.id, ${kind}, ${text} FROM due CROSS JOIN LATERAL (${holders(sql`due.school_id`, role)}) h
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM due)::int AS n`);
  return n;
}

/** Sends the reminders and escalations that are due (in one school, or all); answers how many messages each concerned. */
export async function remindUnconfirmed(db: Db, schoolId?: number): Promise<{ reminded: number; escalated: number }> {
  const reminded = await step(db, sql.raw('reminded_at'), REMIND_AFTER_HOURS, 'psychologyteacher', NoticeKind.reminder, `有一条疑似高危的学生心声超过 ${REMIND_AFTER_HOURS} 小时仍未确认等级，请尽快查看并确认`, schoolId);
  const escalated = await step(db, sql.raw('escalated_at'), ESCALATE_AFTER_HOURS, 'schoolMaster', NoticeKind.escalation, `有一条疑似高危的学生心声超过 ${ESCALATE_AFTER_HOURS} 小时仍未确认等级，请督促心理教师尽快处理`, schoolId);
  return { reminded, escalated };
}

/**
 * Open 高危 cases of a school, counts only: messages at high risk (confirmed, or suggested and not
 * yet confirmed otherwise) that are not handled; of them, those still unconfirmed and those
 * unconfirmed past the escalation time.
 */
export async function openHighRisk(db: Db, schoolId: number) {
  const [counts] = await rows<{ open: number; unconfirmed: number; overdue: number }>(db, sql`
    SELECT count(*)::int AS open,
           count(*) FILTER (WHERE confirmed_level IS NULL)::int AS unconfirmed,
           count(*) FILTER (WHERE confirmed_level IS NULL AND created_at <= now() - make_interval(hours => ${ESCALATE_AFTER_HOURS}))::int AS overdue
      FROM heart_voices
     WHERE school_id = ${schoolId} AND coalesce(confirmed_level, suggested_level) = ${RiskLevel.high}
       AND status <> ${VoiceStatus.handled} AND purged_at IS NULL`);
  return counts;
}

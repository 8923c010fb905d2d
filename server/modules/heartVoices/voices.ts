// The psychology teacher's list of 学生心声 and a message's page. The list carries no text (only
// when, where, category, mood, levels and status), so that every reading of a message's words is
// the opening of its page, and each opening is recorded in the read log (who, when) that the school
// admin sees. An anonymous message never carries its writer: not here, not anywhere.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoTime, rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { page, pageWindow, PagingQuery } from '../../http/paging';
import { RISK_LEVELS, VOICE_CATEGORIES, VOICE_STATUSES } from '../../../src/domain/heartVoices';
import { PINNED, placeFilter, psychologists, schoolOf, voiceOf } from './scope';
import { NoticeKind } from './notices';

const literals = (options: readonly { value: number }[]) => Type.Union(options.map((o) => Type.Literal(o.value)));

export const Place = { gradeId: Type.Optional(Id), classId: Type.Optional(Id) };

const ListQuery = Type.Object({
  ...PagingQuery,
  ...Place,
  keyword: Type.Optional(Type.String({ maxLength: 50 })),
  status: Type.Optional(literals(VOICE_STATUSES)),
  level: Type.Optional(literals(RISK_LEVELS)),
  category: Type.Optional(literals(VOICE_CATEGORIES)),
});

export const ReadAction = { read: 1, reveal: 2 } as const;

/** One opening of a message's page, named by the page (a random id): the read log keeps one row per visit. */
const VisitQuery = Type.Object({ visit: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9-]{8,64}$', maxLength: 64 })) });

/** The writer's name only when the message is named: the one place identity may enter a payload. */
const WRITER = sql`CASE WHEN v.anonymous THEN NULL ELSE s.name END`;

/**
 * When a message was written; an anonymous one only to the hour. With its class and the exact
 * minute, whoever also sees who signed in at the terminal then (the terminal's partner, a
 * colleague at the kiosk) would know the writer; an hour holds many students' sign-ins.
 */
export const WRITTEN_AT = (voice = sql`v`) =>
  isoTime(sql`CASE WHEN ${voice}.anonymous THEN date_trunc('hour', ${voice}.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' ELSE ${voice}.created_at END`);

const FROM = sql`FROM heart_voices v LEFT JOIN students s ON s.id = v.student_id
  LEFT JOIN classes c ON c.id = v.class_id LEFT JOIN grades g ON g.id = v.grade_id`;

const COLUMNS = sql`v.id, ${WRITTEN_AT()} AS "createdAt", v.category, v.mood, v.anonymous, ${WRITER} AS "studentName",
  g.name AS "gradeName", c.name AS "className", v.suggested_level AS "suggestedLevel", v.risk_types AS "riskTypes",
  v.confirmed_level AS "confirmedLevel", v.status, ${PINNED} AS pinned`;

const voiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/heart/v1/voices', { preHandler: psychologists, schema: { querystring: ListQuery } }, async (request) => {
    const q = request.query;
    const schoolId = schoolOf(request);
    const { current, size, offset } = pageWindow(q);
    const keyword = q.keyword?.trim();
    // The search reads the words (recorded when a message is opened) and a named writer's name,
    // never an anonymous writer's.
    const where = sql`${await placeFilter(db, schoolId, q)}
      ${q.status !== undefined ? sql`AND v.status = ${q.status}` : sql``}
      ${q.level ? sql`AND coalesce(v.confirmed_level, v.suggested_level) = ${q.level}` : sql``}
      ${q.category ? sql`AND v.category = ${q.category}` : sql``}
      ${keyword ? sql`AND (strpos(v.content, ${keyword}) > 0 OR (NOT v.anonymous AND strpos(s.name, ${keyword}) > 0))` : sql``}`;
    // The writer is joined only to search by name.
    const from = keyword ? sql`FROM heart_voices v LEFT JOIN students s ON s.id = v.student_id` : sql`FROM heart_voices v`;
    const [{ total }] = await rows<{ total: number }>(db, sql`SELECT count(*)::int AS total ${from} WHERE ${where}`);
    // Pinned first, then newest: the few pinned ids, then the page's rest read newest-first along
    // the (school, created_at) index, instead of sorting every message of the school.
    const pinned = await rows<{ id: number }>(db, sql`SELECT v.id ${from} WHERE ${where} AND ${PINNED} ORDER BY v.created_at DESC, v.id DESC`);
    const ids = pinned.slice(offset, offset + size).map((r) => r.id);
    if (ids.length < size && total > offset) {
      const rest = await rows<{ id: number }>(
        db,
        sql`SELECT v.id ${from} WHERE ${where} AND NOT ${PINNED} ORDER BY v.created_at DESC, v.id DESC
             LIMIT ${size - ids.length} OFFSET ${Math.max(0, offset - pinned.length)}`,
      );
      ids.push(...rest.map((r) => r.id));
    }
    const found = ids.length
      ? await rows<{ id: number }>(db, sql`SELECT ${COLUMNS} ${FROM} WHERE v.id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int)`)
      : [];
    const records = ids.map((id) => found.find((r) => r.id === id)!);
    return ok(page(records, total, current, size));
  });

  app.get('/api/heart/v1/voices/:id', { preHandler: psychologists, schema: { params: Type.Object({ id: Id }), querystring: VisitQuery } }, async (request) => {
    const { id } = request.params;
    const schoolId = schoolOf(request);
    await voiceOf(db, schoolId, id);
    const userId = request.principal.userId;
    const [voice] = await rows<Record<string, unknown>>(
      db,
      sql`SELECT ${COLUMNS}, v.content, ${isoTime(sql`v.handled_at`)} AS "handledAt", ${isoTime(sql`v.purged_at`)} AS "purgedAt" ${FROM} WHERE v.id = ${id}`,
    );
    const followUps = await rows(
      db,
      sql`SELECT f.id, f.kind, f.note, u.name AS "userName", ${isoTime(sql`f.created_at`)} AS "createdAt"
            FROM heart_voice_follow_ups f JOIN users u ON u.id = f.user_id WHERE f.voice_id = ${id} ORDER BY f.created_at, f.id`,
    );
    // The read is recorded before the words leave, once per visit of the page (its reloads of the
    // same message are one visit; a call without a visit is a visit of its own); its alerts are seen.
    const visit = request.query.visit ?? null;
    await db.execute(sql`INSERT INTO heart_voice_reads (school_id, voice_id, user_id, action, visit_id) VALUES (${schoolId}, ${id}, ${userId}, ${ReadAction.read}, ${visit})
                         ON CONFLICT (voice_id, user_id, visit_id) WHERE visit_id IS NOT NULL DO NOTHING`);
    await db.execute(sql`UPDATE heart_notices SET seen_at = now() WHERE user_id = ${userId} AND voice_id = ${id} AND kind IN (${NoticeKind.highRisk}, ${NoticeKind.reminder}) AND seen_at IS NULL`);
    return ok({ ...voice, followUps });
  });
};
export default voiceRoutes;

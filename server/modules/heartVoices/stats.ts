// Counts of 学生心声 for the psychology teacher: mood over the weeks (per grade, or per class of the
// chosen grade), and an xlsx of counts per week, grade, class, category and level. Neither carries
// a word of any message or any name, so neither is a read of a message.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { sendWorkbook } from '../../http/download';
import { streamWorkbook } from '../../files/xlsx';
import { dateOnly, DEFAULT_ZONE, exportFileName, fileStamp } from '../../../src/domain/format';
import { schoolZone } from '../../http/schoolZone';
import { labelOf, RISK_LEVELS, VOICE_CATEGORIES } from '../../../src/domain/heartVoices';
import { placeFilter, psychologists, schoolOf } from './scope';
import { Place } from './voices';

export const MOOD_WEEKS = 12;

/** The school's week (Monday, on the school's clock) a message was written in, as YYYY-MM-DD. */
const weekOf = (zone: string) => sql`to_char(date_trunc('week', v.created_at AT TIME ZONE ${zone}::text), 'YYYY-MM-DD')`;

/** The Mondays (the school's dates) of the last MOOD_WEEKS weeks, this one last. */
export function moodWeeks(now: Date = new Date(), zone: string = DEFAULT_ZONE): string[] {
  const today = new Date(`${dateOnly(now, zone)}T00:00:00Z`);
  const monday = today.getTime() - ((today.getUTCDay() + 6) % 7) * 86400_000;
  return Array.from({ length: MOOD_WEEKS }, (_, i) => new Date(monday - (MOOD_WEEKS - 1 - i) * 7 * 86400_000).toISOString().slice(0, 10));
}

const statsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;

  app.get('/api/heart/v1/mood', { preHandler: psychologists, schema: { querystring: Type.Object(Place) } }, async (request) => {
    const q = request.query;
    const school = schoolOf(request);
    const zone = await schoolZone(db, school);
    const where = await placeFilter(db, school, q);
    // One line per grade of the school, per class of the chosen grade, or the chosen class alone.
    const group = q.classId || q.gradeId ? sql`c.name` : sql`g.name`;
    const order = q.classId || q.gradeId ? sql`min(c.id)` : sql`min(g.level)`;
    const list = await rows<{ week: string; name: string; mood: number; count: number }>(
      db,
      sql`SELECT ${weekOf(zone)} AS week, ${group} AS name, round(avg(v.mood)::numeric, 2)::float AS mood, count(*)::int AS count, ${order} AS o
            FROM heart_voices v JOIN classes c ON c.id = v.class_id JOIN grades g ON g.id = v.grade_id
           WHERE ${where} AND v.mood IS NOT NULL
             AND v.created_at >= date_trunc('week', now() AT TIME ZONE ${zone}::text) AT TIME ZONE ${zone}::text - make_interval(weeks => ${MOOD_WEEKS - 1})
           GROUP BY 1, 2 ORDER BY o, 1`,
    );
    // Every week of the window, those without a message too: an empty week stays empty on the
    // chart (no line drawn across it), and each point carries how many messages it averages.
    const weeks = moodWeeks(new Date(), zone);
    const names = [...new Set(list.map((r) => r.name))];
    const at = (name: string, week: string) => list.find((r) => r.name === name && r.week === week);
    const series = names.map((name) => ({ name, values: weeks.map((w) => at(name, w)?.mood ?? null), counts: weeks.map((w) => at(name, w)?.count ?? 0) }));
    return ok({ weeks: list.length ? weeks : [], series });
  });

  app.get('/api/heart/v1/export', { preHandler: psychologists, schema: { querystring: Type.Object(Place) } }, async (request, reply) => {
    const q = request.query;
    const school = schoolOf(request);
    const zone = await schoolZone(db, school);
    const where = await placeFilter(db, school, q);
    const list = await rows<{ week: string; gradeName: string | null; className: string | null; category: number; level: number | null; count: number }>(
      db,
      sql`SELECT ${weekOf(zone)} AS week, g.name AS "gradeName", c.name AS "className", v.category, v.confirmed_level AS level, count(*)::int AS count
            FROM heart_voices v LEFT JOIN classes c ON c.id = v.class_id LEFT JOIN grades g ON g.id = v.grade_id
           WHERE ${where} GROUP BY 1, 2, 3, 4, 5, g.level, c.id ORDER BY 1 DESC, g.level, c.id, 4, 5`,
    );
    const stream = streamWorkbook(
      '心声统计',
      [
        { header: '周（起始日）', width: 14 },
        { header: '年级', width: 10 },
        { header: '班级', width: 10 },
        { header: '分类', width: 10 },
        { header: '确认等级', width: 10 },
        { header: '条数', width: 8 },
      ],
      list.map((r) => [r.week, r.gradeName ?? '', r.className ?? '', labelOf(VOICE_CATEGORIES, r.category), r.level ? labelOf(RISK_LEVELS, r.level) : '未确认', r.count]),
    );
    return sendWorkbook(reply, stream, exportFileName('学生心声统计', fileStamp(new Date(), zone), 'xlsx'));
  });
};
export default statsRoutes;

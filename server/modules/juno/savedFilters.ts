// A user's saved list filters (常用筛选): partners come back to the same filtered lists of orders
// and terminals every day, so the filters live on the server, per user, and survive signing out
// and a new browser. Only the user's own rows are ever read or written.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listColumns, savedFilters } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';
import { badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { MAX_SAVED_FILTERS, SAVED_FILTER_NAME_MAX, SAVED_FILTER_MAX_BYTES } from '../../../src/domain/savedFilters';

/** A react-admin resource name. */
const Resource = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z][A-Za-z0-9]*$' });
/** Names and values are checked by `filterValues`, so values keep their type (no coercion). */
const FilterValues = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 20 });
/** A list's filter names are its fields' sources. */
const FILTER_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

const isScalar = (v: unknown) => (typeof v === 'string' && v.length <= 100) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

/** Flat values only: a scalar, or a short list of scalars, each as it was picked. */
function filterValues(filter: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(filter)) {
    const ok = FILTER_NAME.test(name) && (isScalar(value) || (Array.isArray(value) && value.length <= 50 && value.every(isScalar)));
    if (!ok) throw badRequest('筛选条件格式不正确');
  }
  if (Buffer.byteLength(JSON.stringify(filter)) > SAVED_FILTER_MAX_BYTES) throw badRequest('筛选条件过多，无法保存');
  return filter;
}

const savedFilterRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const BASE = '/api/juno/personal/savedFilters';

  app.get(BASE, { schema: { querystring: Type.Object({ resource: Resource }) } }, async (request) => {
    const { resource } = request.query;
    const list = await app.db
      .select({ id: savedFilters.id, name: savedFilters.name, filter: savedFilters.filter, createdAt: savedFilters.createdAt })
      .from(savedFilters)
      .where(and(eq(savedFilters.userId, request.principal.userId), eq(savedFilters.resource, resource)))
      .orderBy(asc(savedFilters.name));
    return ok(list);
  });

  // Saving under a name the user already has replaces that filter: "save again" is how a
  // partner updates a daily view.
  app.post(
    `${BASE}/save`,
    { schema: { body: Type.Object({ resource: Resource, label: Type.String({ minLength: 1, maxLength: SAVED_FILTER_NAME_MAX }), filter: FilterValues }) } },
    async (request) => {
      const body = request.body;
      const { resource } = body;
      const userId = request.principal.userId;
      const label = body.label.trim();
      if (!label) throw badRequest('名称不能为空');
      const filter = filterValues(body.filter);
      return app.db.transaction(async (tx) => {
        // One user's saves are serialised, so two tabs cannot pass the cap together.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('saved_filters'), ${userId})`);
        const [existing] = await tx
          .select({ id: savedFilters.id })
          .from(savedFilters)
          .where(and(eq(savedFilters.userId, userId), eq(savedFilters.resource, resource), eq(savedFilters.name, label)));
        if (existing) {
          await tx.update(savedFilters).set({ filter }).where(eq(savedFilters.id, existing.id));
          return ok({ id: existing.id, name: label, filter }, '已更新常用筛选');
        }
        const [{ n }] = await tx
          .select({ n: count() })
          .from(savedFilters)
          .where(and(eq(savedFilters.userId, userId), eq(savedFilters.resource, resource)));
        if (n >= MAX_SAVED_FILTERS) throw conflict(`常用筛选最多保存${MAX_SAVED_FILTERS}个，请先删除不用的`);
        try {
          const [row] = await tx.insert(savedFilters).values({ userId, resource, name: label, filter }).returning({ id: savedFilters.id });
          return ok({ id: row.id, name: label, filter }, '已保存常用筛选');
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('已有同名的常用筛选');
          throw error;
        }
      });
    },
  );

  app.post(`${BASE}/remove`, { schema: { body: Type.Object({ id: Id }) } }, async (request) => {
    const { id } = request.body;
    const removed = await app.db
      .delete(savedFilters)
      .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, request.principal.userId)))
      .returning({ id: savedFilters.id });
    if (!removed.length) throw notFound('常用筛选不存在');
    return ok(null, '已删除');
  });

  // The columns the user shows in a list, by field source in order: kept here too, so signing out
  // (which clears the browser's store) does not lose them. `null` until the user has chosen.
  const Columns = Type.Array(Type.String({ pattern: FILTER_NAME.source, maxLength: 40 }), { maxItems: 40 });

  app.get(`${BASE}/columns`, { schema: { querystring: Type.Object({ resource: Resource }) } }, async (request) => {
    const [row] = await app.db
      .select({ columns: listColumns.columns })
      .from(listColumns)
      .where(and(eq(listColumns.userId, request.principal.userId), eq(listColumns.resource, request.query.resource)));
    return ok({ columns: (row?.columns as string[] | undefined) ?? null });
  });

  app.post(`${BASE}/columns`, { schema: { body: Type.Object({ resource: Resource, columns: Columns }) }, config: { fieldLabels: { columns: '显示列' } } }, async (request) => {
    const { resource, columns } = request.body;
    if (new Set(columns).size !== columns.length) throw badRequest('显示列不能重复');
    const userId = request.principal.userId;
    await app.db
      .insert(listColumns)
      .values({ userId, resource, columns })
      .onConflictDoUpdate({ target: [listColumns.userId, listColumns.resource], set: { columns, updatedAt: new Date() } });
    return ok({ columns });
  });
};
export default savedFilterRoutes;

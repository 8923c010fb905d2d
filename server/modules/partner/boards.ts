// The data boards' calls (docs/api-partner-boards.md): 数据看板, 直营学校, a school's board and a
// student's usage. Every call: a partner of any level, its subtree only; a school, student or
// child partner outside it is 404.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { partnerLevel } from '../../../src/domain/roles';
import { EnvelopeSchema, PageSchema } from '../../../src/domain/envelope';
import { StudentPrintJobSchema, StudentSignInDaySchema } from '../../../src/domain/devices';
import { rows } from '../../db/query';
import { ok } from '../../http/envelope';
import { PagingQuery, pageWindow } from '../../http/paging';
import { Id } from '../../http/schemas';
import { boardScope, PartnerField, RangeFields, readRange, UserKindField } from './boardQuery';
import { overview } from './boardOverview';
import { schoolBoard } from './boardSchool';
import { schoolList } from './boardSchools';
import { checkStudent, studentPrintJobs, studentSignIns, studentUsage } from './boardStudent';
import { anyPartner, checkPartnerId, checkSchool, scopeOf } from './scope';

const BASE = '/api/wrongbook/v1.0/partner/board';

const OverviewQuery = Type.Object({
  ...RangeFields,
  ...UserKindField,
  ...PartnerField,
  statistics: Type.Optional(Type.Union([Type.Literal('overall'), Type.Literal('app'), Type.Literal('subject')])),
  metric: Type.Optional(Type.Union([Type.Literal('pages'), Type.Literal('uses')])),
});
const SchoolsQuery = Type.Object({ ...RangeFields, ...UserKindField, ...PartnerField, ...PagingQuery, keyword: Type.Optional(Type.String({ maxLength: 50 })) });
const SchoolQuery = Type.Object({ ...RangeFields, ...UserKindField, schoolId: Id });
const StudentQuery = Type.Object({ ...RangeFields, schoolId: Id, studentId: Id });
const StudentPageQuery = Type.Object({ ...RangeFields, ...PagingQuery, schoolId: Id, studentId: Id });

const boardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Every board is a read over months of print jobs: from the replica when one is configured
  // (DATABASE_READ_URL). The caller's scope still comes from the primary (scopeOf).
  const db = app.readDb;

  /** The subtree's partners, for the boards' partner pickers. */
  app.get(`${BASE}/partners`, { preHandler: anyPartner }, async (request) => {
    const scope = await scopeOf(request);
    const found = await rows<{ id: number; name: string; ancestors: string }>(db, sql`
      SELECT id, name, ancestors FROM partners WHERE id IN (${sql.join(scope.subtreeIds.map((id) => sql`${id}`), sql`, `)}) ORDER BY ancestors, id`);
    return ok(found.map((p) => ({ id: p.id, name: p.name, level: partnerLevel(p.ancestors) })));
  });

  app.get(`${BASE}/overview`, { preHandler: anyPartner, schema: { querystring: OverviewQuery } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await boardScope(request, q.partnerId);
    return ok(await overview(db, scope, range, { userKind: q.userKind, statistics: q.statistics ?? 'overall', metric: q.metric ?? 'pages' }));
  });

  app.get(`${BASE}/schools`, { preHandler: anyPartner, schema: { querystring: SchoolsQuery } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await scopeOf(request);
    if (q.partnerId) checkPartnerId(scope, q.partnerId);
    return ok(await schoolList(db, scope, range, { partnerId: q.partnerId, keyword: q.keyword?.trim() || undefined, userKind: q.userKind, ...pageWindow(q) }));
  });

  app.get(`${BASE}/school`, { preHandler: anyPartner, schema: { querystring: SchoolQuery } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await scopeOf(request);
    const school = await checkSchool(db, scope, q.schoolId);
    return ok(await schoolBoard(db, scope, school, range, q.userKind));
  });

  app.get(`${BASE}/student`, { preHandler: anyPartner, schema: { querystring: StudentQuery } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await scopeOf(request);
    const school = await checkSchool(db, scope, q.schoolId);
    return ok(await studentUsage(db, scope, school.id, await checkStudent(db, school.id, q.studentId), range));
  });

  app.get(`${BASE}/student/printJobs`, { preHandler: anyPartner, schema: { querystring: StudentPageQuery, response: { 200: EnvelopeSchema(PageSchema(StudentPrintJobSchema)) } } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await scopeOf(request);
    const school = await checkSchool(db, scope, q.schoolId);
    return ok(await studentPrintJobs(db, scope, school.id, await checkStudent(db, school.id, q.studentId), range, pageWindow(q)));
  });

  app.get(`${BASE}/student/signIns`, { preHandler: anyPartner, schema: { querystring: StudentPageQuery, response: { 200: EnvelopeSchema(PageSchema(StudentSignInDaySchema)) } } }, async (request) => {
    const q = request.query;
    const range = readRange(q);
    const scope = await scopeOf(request);
    const school = await checkSchool(db, scope, q.schoolId);
    return ok(await studentSignIns(db, scope, school.id, await checkStudent(db, school.id, q.studentId), range, pageWindow(q)));
  });
};

export default boardRoutes;

// POST /api/device/v1/printJobs: a batch of print jobs as the terminal buffered them (up to
// MAX_UPLOAD_RECORDS, up to BACKFILL_DAYS back). Users are checked against the terminal's school in
// one query; recording is idempotent by the terminal's clientJobId, so a retried batch adds nothing.
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { PRINT_APPS } from '../../../src/domain/partner';
import { MAX_UPLOAD_RECORDS } from '../../../src/domain/devices';
import { deployedDevice } from './auth';
import { backfillProblem, Instant } from './window';
import { firstForeignUser, UserKindSchema } from './users';
import { recordPrintJobs, type PrintJobInput } from './usage';

const Job = Type.Object({
  clientJobId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.:-]+$' }),
  userKind: UserKindSchema,
  userId: Id,
  app: Type.Union(PRINT_APPS.map((a) => Type.Literal(a.value))),
  subjectId: Type.Optional(Type.Union([Id, Type.Null()])),
  pages: Type.Integer({ minimum: 1, maximum: 1000 }),
  printedAt: Instant,
});

const Upload = Type.Object({ jobs: Type.Array(Job, { minItems: 1, maxItems: MAX_UPLOAD_RECORDS }) });

const printJobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/device/v1/printJobs', { config: { public: true, deviceLimit: 'printJobs' }, schema: { body: Upload } }, async (request) => {
    const { jobs } = request.body;
    const device = deployedDevice(request);
    const now = Date.now();
    const list: PrintJobInput[] = jobs.map((j, i) => {
      const printedAt = new Date(j.printedAt);
      const problem = backfillProblem(printedAt, now);
      if (problem) throw badRequest(`第${i + 1}条打印记录的${problem}`);
      return { clientJobId: j.clientJobId, userKind: j.userKind, userId: j.userId, app: j.app, subjectId: j.subjectId ?? null, pages: j.pages, printedAt };
    });
    const foreign = await firstForeignUser(app.db, device.schoolId, list);
    if (foreign >= 0) throw badRequest(`第${foreign + 1}条打印记录的用户不是本校师生`);
    const recorded = await recordPrintJobs(app.db, device, list);
    return ok({ received: list.length, recorded, duplicates: list.length - recorded });
  });
};
export default printJobRoutes;

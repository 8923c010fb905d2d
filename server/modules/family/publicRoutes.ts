// The family page, reachable without an account: GET /f/:token (HTML) and the same data as JSON at
// GET /api/family/v1.0/view/:token; a regrade request from the page's form (POST /f/:token/regrade)
// or as JSON. Every opening is logged (family_link_views); a dead link answers a Chinese page and a
// 4xx, never data. Limits per client address and per link keep guessing and flooding bounded.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FAMILY_LIMITS, FAMILY_RATE_LIMITS, RegradeStatus } from '../../../src/domain/family';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { ApiError, badRequest, conflict, notFound, ok } from '../../http/envelope';
import { Id } from '../../http/schemas';
import { tooFrequent, WindowLimiter } from '../devices/limits';
import { answeredInScope, familyPage, resolveLink, type FamilyLink } from './page';
import { deadLinkHtml, loadMath, pageHtml } from './html';
import { FAMILY_BASE } from './links';

const DEAD: Record<'invalid' | 'expired' | 'revoked', { status: number; title: string; message: string }> = {
  invalid: { status: 404, title: '链接无效', message: '这个链接无效或不完整，请联系老师重新获取。' },
  expired: { status: 410, title: '链接已过期', message: '链接已过期，请联系老师重新获取。' },
  revoked: { status: 410, title: '链接已失效', message: '老师已停用这个链接，请联系老师重新获取。' },
};

const TokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });
const RegradeFields = {
  /** 0/1 homework, 2 exam, 3 an AI批改 essay (REGRADE_ESSAY). */
  sourceType: Type.Integer({ minimum: 0, maximum: 3 }),
  sourceId: Id,
  questionId: Id,
  reason: Type.String({ maxLength: FAMILY_LIMITS.reasonMax * 2 }),
};

/** Nothing of this page is indexed, kept or handed on. */
function privateHeaders(reply: FastifyReply) {
  return reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
}

/** Files one request; throws a Chinese 4xx for anything the page would not offer. */
async function fileRegrade(db: Db, link: FamilyLink, body: { sourceType: number; sourceId: number; questionId: number; reason: string }) {
  const reason = body.reason.trim();
  if (!reason) throw badRequest('请填写申请复核的原因');
  if ([...reason].length > FAMILY_LIMITS.reasonMax) throw badRequest(`原因最多 ${FAMILY_LIMITS.reasonMax} 字`);
  if (!(await answeredInScope(db, link, body.sourceType, body.sourceId, body.questionId))) throw notFound('没有找到这道题的作答');
  const [{ open }] = await rows<{ open: number }>(db, sql`
    SELECT count(*)::int AS open FROM regrade_requests WHERE link_id = ${link.id} AND status = ${RegradeStatus.open}`);
  if (open >= FAMILY_LIMITS.openPerLink) throw conflict(`已有 ${open} 个复核申请等待答复，请等老师答复后再申请`);
  const [row] = await rows<{ id: number }>(db, sql`
    INSERT INTO regrade_requests (tenant_id, school_id, student_id, link_id, source_type, source_id, question_id, reason)
    VALUES (${link.tenantId}, ${link.schoolId}, ${link.studentId}, ${link.id}, ${body.sourceType}, ${body.sourceId}, ${body.questionId}, ${reason})
    ON CONFLICT DO NOTHING RETURNING id`);
  if (!row) throw conflict('这道题已经申请过复核，请等待老师答复');
  return row.id;
}

const publicRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.db;
  const limiter = new WindowLimiter();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /** The live link of the request's token, or the reason it is dead; counts the address's tries. */
  async function open(request: FastifyRequest, token: string): Promise<{ link: FamilyLink } | { dead: (typeof DEAD)[keyof typeof DEAD] }> {
    const address = request.ip;
    const views = limiter.take(`family-view:${address}`, FAMILY_RATE_LIMITS.viewsPerAddress);
    if (!views.allowed) throw tooFrequent('打开页面', views.retryAfter);
    const found = await resolveLink(db, token);
    if (found.state === 'live') return { link: found.link };
    const bad = limiter.take(`family-bad:${address}`, FAMILY_RATE_LIMITS.badTokensPerAddress);
    if (!bad.allowed) throw tooFrequent('打开无效链接', bad.retryAfter);
    return { dead: DEAD[found.state] };
  }

  const logView = (link: FamilyLink, request: FastifyRequest) =>
    db.execute(sql`INSERT INTO family_link_views (link_id, ip) VALUES (${link.id}, ${request.ip ? request.ip.slice(0, 64) : null})`);

  const takeRequest = (link: FamilyLink) => {
    const taken = limiter.take(`family-request:${link.id}`, FAMILY_RATE_LIMITS.requestsPerLink);
    if (!taken.allowed) throw tooFrequent('申请复核', taken.retryAfter);
  };

  /** HTML answers for the page's own routes: an error is a Chinese page, not an envelope. */
  const htmlError = (reply: FastifyReply, err: unknown) => {
    if (!(err instanceof ApiError)) throw err;
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    return privateHeaders(reply).status(err.code).type('text/html; charset=utf-8').send(deadLinkHtml('无法完成', err.message));
  };

  app.get('/f/:token', { schema: { params: TokenParams, querystring: Type.Object({ sent: Type.Optional(Type.String({ maxLength: 8 })) }) } }, async (request, reply) => {
    try {
      const opened = await open(request, request.params.token);
      privateHeaders(reply).type('text/html; charset=utf-8');
      if ('dead' in opened) return reply.status(opened.dead.status).send(deadLinkHtml(opened.dead.title, opened.dead.message));
      const [page] = await Promise.all([familyPage(db, opened.link), logView(opened.link, request), loadMath()]);
      const notice = request.query.sent === '1' ? { ok: true, text: '复核申请已提交，老师答复后会显示在本页。' } : undefined;
      return reply.send(pageHtml(request.params.token, page, notice));
    } catch (err) {
      return htmlError(reply, err);
    }
  });

  app.post(
    '/f/:token/regrade',
    { schema: { params: TokenParams, body: Type.Object(Object.fromEntries(Object.entries(RegradeFields).map(([k, v]) => [k, Type.Optional(v)]))) } },
    async (request, reply) => {
      try {
        const opened = await open(request, request.params.token);
        if ('dead' in opened) return privateHeaders(reply).status(opened.dead.status).type('text/html; charset=utf-8').send(deadLinkHtml(opened.dead.title, opened.dead.message));
        const b = request.body as Record<string, unknown>;
        const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : NaN);
        const body = { sourceType: num(b.sourceType), sourceId: num(b.sourceId), questionId: num(b.questionId), reason: typeof b.reason === 'string' ? b.reason : '' };
        if ([body.sourceType, body.sourceId, body.questionId].some(Number.isNaN)) throw badRequest('申请内容不完整，请回到页面重新提交');
        takeRequest(opened.link);
        await fileRegrade(db, opened.link, body);
        return privateHeaders(reply).redirect(`/f/${request.params.token}?sent=1#q-${body.sourceType}-${body.sourceId}-${body.questionId}`, 303);
      } catch (err) {
        return htmlError(reply, err);
      }
    },
  );

  app.get(`${FAMILY_BASE}/view/:token`, { config: { public: true }, schema: { params: TokenParams } }, async (request, reply) => {
    const opened = await open(request, request.params.token);
    privateHeaders(reply);
    if ('dead' in opened) throw new ApiError(opened.dead.status, opened.dead.message);
    const [page] = await Promise.all([familyPage(db, opened.link), logView(opened.link, request)]);
    return ok(page);
  });

  app.post(
    `${FAMILY_BASE}/view/:token/regrades`,
    { config: { public: true }, schema: { params: TokenParams, body: Type.Object(RegradeFields, { additionalProperties: false }) } },
    async (request, reply) => {
      const opened = await open(request, request.params.token);
      privateHeaders(reply);
      if ('dead' in opened) throw new ApiError(opened.dead.status, opened.dead.message);
      takeRequest(opened.link);
      const id = await fileRegrade(db, opened.link, request.body);
      return ok({ id }, '复核申请已提交');
    },
  );
};
export default publicRoutes;

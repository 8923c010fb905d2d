// 操作日志: the one call every administrative write makes, `recordAudit(tx, request, {...})`, inside
// the write's own transaction, so a write that fails leaves no entry and a write that is done always
// has one. The operator (id, name, active role, tenant, school or partner) and the client address
// come from the request; the site gives the action, the kind and id of the record, and a short
// Chinese summary. A summary names people and records, never a password, PIN, secret or the words
// of a 学生心声 (docs/api-audit.md).
import type { FastifyRequest } from 'fastify';
import { AUDIT_LIMITS, type AuditAction, type AuditKind } from '../../../src/domain/auditFields';
import type { Db } from '../../db';
import { auditLogs } from '../../db/schema';

export interface AuditEntry {
  action: AuditAction;
  kind: AuditKind;
  /** The record's id or number (PO…, ST…); none for a bulk action. */
  recordId?: number | string | null;
  /** 新增学生 张三（202410401）, 导入学生 120 名, 修改教师 李四 的职务… */
  summary: string;
}

/** Cut to `max` characters (not UTF-16 units), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** A few names of a bulk action, the count said beside it: 张三、李四、王五等. */
export function someNames(names: readonly string[], shown = 3): string {
  return names.length <= shown ? names.join('、') : `${names.slice(0, shown).join('、')}等`;
}

export async function recordAudit(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  const p = request.principal;
  await db.insert(auditLogs).values({
    tenantId: p.tenantId,
    schoolId: p.schoolId,
    partnerId: p.partnerId,
    userId: p.userId,
    userName: p.name,
    role: p.activeRole ?? '',
    action: entry.action,
    kind: entry.kind,
    recordId: entry.recordId === undefined || entry.recordId === null ? null : clip(String(entry.recordId), AUDIT_LIMITS.recordId),
    summary: clip(entry.summary, AUDIT_LIMITS.summary),
    ip: request.ip ? clip(request.ip, 64) : null,
  });
}

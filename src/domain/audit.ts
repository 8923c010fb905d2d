// 操作日志: an entry as the audit calls answer it (docs/api-audit.md), declared once for the route's
// reply schema and the tests. Names, choices and limits are in auditFields.ts.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

export * from './auditFields';

export const AuditRecordSchema = Type.Object({
  id: Type.Integer(),
  /** ISO time (UTC); screens and the export show it in China time. */
  createdAt: Type.String(),
  userId: Nullable(Type.Integer()),
  userName: Type.String(),
  /** The operator's active role when acting (src/domain/roles.ts), and its Chinese name. */
  role: Type.String(),
  roleName: Type.String(),
  /** The operator's school, partner, or 平台. */
  orgName: Type.String(),
  action: Type.String(),
  kind: Type.String(),
  recordId: Nullable(Type.String()),
  summary: Type.String(),
  ip: Nullable(Type.String()),
});
export type AuditRecord = Static<typeof AuditRecordSchema>;

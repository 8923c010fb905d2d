// What a 学生心声 notice is about, and who receives one: shared by the notices' routes and the
// reminders that write them.
import { sql, type SQL } from 'drizzle-orm';
import { HeartNoticeKind } from '../../../src/domain/heartVoices';

export const NoticeKind = HeartNoticeKind;

/** Users of the school holding a role (role keys are 'prefix:role'); the school may be a column of the outer query. */
export const holders = (schoolId: number | SQL, role: string) =>
  sql`SELECT u.id FROM users u WHERE u.school_id = ${schoolId}
        AND EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND split_part(r.role_key, ':', 2) = ${role})`;


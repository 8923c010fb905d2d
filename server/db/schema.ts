// The relational schema. Every tenant-owned row carries tenant_id so the tables can be
// distributed on it (DESIGN.md "scale-out"); platform rows (partners, sessions, subjects) do not.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, real, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Resellers. `ancestors` is the comma-separated chain of parent ids; its length is the level. */
export const partners = pgTable('partners', {
  id: serial('id').primaryKey(),
  parentId: integer('parent_id'),
  ancestors: text('ancestors').notNull().default('0'),
  name: text('name').notNull(),
  contactName: text('contact_name'),
  phone: text('phone'),
  region: text('region'),
  createdAt: createdAt(),
});

export const schools = pgTable(
  'schools',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    name: text('name').notNull(),
    /** The region (district) a regional researcher oversees. */
    region: text('region').notNull(),
    /** The partner that runs this school directly, if any. */
    partnerId: integer('partner_id').references(() => partners.id),
    createdAt: createdAt(),
  },
  (t) => [index('schools_tenant_idx').on(t.tenantId)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    schoolId: integer('school_id').references(() => schools.id),
    partnerId: integer('partner_id').references(() => partners.id),
    region: text('region'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_username_uq').on(t.username)],
);

/** roleKey is 'prefix:role' (SPEC §3), e.g. 'vesta:teacher'. */
export const userRoles = pgTable(
  'user_roles',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleKey: text('role_key').notNull(),
  },
  (t) => [uniqueIndex('user_roles_uq').on(t.userId, t.roleKey)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-ins, for the lock-out rule (5 per account and IP in 10 minutes). */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_failures_idx').on(t.username, t.ip, t.at)],
);

export const subjects = pgTable('subjects', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
});

export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    name: text('name').notNull(),
  },
  (t) => [index('courses_school_idx').on(t.tenantId, t.schoolId)],
);

export const grades = pgTable(
  'grades',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    name: text('name').notNull(),
    /** 7, 8, 9 for 七、八、九年级. */
    level: smallint('level').notNull(),
    /** Set when the whole grade has graduated. */
    graduatedYear: integer('graduated_year'),
  },
  (t) => [index('grades_school_idx').on(t.tenantId, t.schoolId)],
);

export const classes = pgTable(
  'classes',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    gradeId: integer('grade_id').notNull().references(() => grades.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('classes_grade_idx').on(t.tenantId, t.gradeId)],
);

export const teachers = pgTable(
  'teachers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone'),
    job: text('job'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('teachers_user_uq').on(t.userId), index('teachers_school_idx').on(t.tenantId, t.schoolId)],
);

/** Teacher × class × course. */
export const teachingAssignments = pgTable(
  'teaching_assignments',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id, { onDelete: 'cascade' }),
    classId: integer('class_id').notNull().references(() => classes.id),
    courseId: integer('course_id').notNull().references(() => courses.id),
  },
  (t) => [uniqueIndex('teaching_uq').on(t.teacherId, t.classId, t.courseId), index('teaching_class_idx').on(t.classId)],
);

/** What a leader oversees: a subject (subject leader) or a grade (grade leader) of their school. */
export const leaderScopes = pgTable('leader_scopes', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
  gradeId: integer('grade_id').references(() => grades.id),
  subjectId: integer('subject_id').references(() => subjects.id),
});

export const students = pgTable(
  'students',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    classId: integer('class_id').references(() => classes.id),
    name: text('name').notNull(),
    studentNo: text('student_no').notNull(),
    gender: smallint('gender'),
    parentPhone: text('parent_phone'),
    /** 0 在读, 1 已毕业. */
    status: smallint('status').notNull().default(0),
    /** 0 未绑定, 1 已绑定. */
    bindingStatus: smallint('binding_status').notNull().default(0),
    graduatedYear: integer('graduated_year'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('students_no_uq').on(t.schoolId, t.studentNo),
    index('students_class_idx').on(t.tenantId, t.classId),
    // The student list pages a school by status and class, sorted by number or name.
    index('students_school_class_idx').on(t.schoolId, t.status, t.classId, t.studentNo),
    index('students_school_name_idx').on(t.schoolId, t.name),
  ],
);

/** Homework a teacher assigned to a class; the menu badge counts those awaiting review. */
export const homeworks = pgTable(
  'homeworks',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id),
    classId: integer('class_id').notNull().references(() => classes.id),
    courseId: integer('course_id').notNull().references(() => courses.id),
    title: text('title').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** Submissions not yet reviewed by the teacher. */
    pendingReview: integer('pending_review').notNull().default(0),
  },
  (t) => [index('homeworks_teacher_idx').on(t.tenantId, t.teacherId, t.assignedAt)],
);

/** AI grading tasks (SPEC §3): type 1 examProcess, 2 composition, 3 answerSheet; status 1/3/4/7. */
export const gradingTasks = pgTable(
  'grading_tasks',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id),
    classId: integer('class_id').references(() => classes.id),
    type: smallint('type').notNull(),
    status: smallint('status').notNull().default(1),
    title: text('title').notNull(),
    /** Answer-sheet tasks: the printed sheet whose layout is the recognition template. */
    sheetId: text('sheet_id'),
    /** Answer key (answer sheets), the assignment's questions (homework) or the essay brief. */
    answerKey: jsonb('answer_key'),
    questions: jsonb('questions'),
    essayBrief: jsonb('essay_brief'),
    /** Why the task failed, in Chinese, when status is 7. */
    failReason: text('fail_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('grading_tasks_teacher_idx').on(t.tenantId, t.teacherId, t.status)],
);

/** A printed answer sheet. `layout` generated the PDF and is the template recognition reads. */
export const answerSheets = pgTable(
  'answer_sheets',
  {
    id: text('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id),
    classId: integer('class_id').references(() => classes.id),
    title: text('title').notNull(),
    layout: jsonb('layout').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('answer_sheets_teacher_idx').on(t.tenantId, t.teacherId)],
);

/** An uploaded photo, scan or PDF of a grading task, with its recognition status (SPEC §3: 0–5). */
export const gradingFiles = pgTable(
  'grading_files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    taskId: integer('task_id').notNull().references(() => gradingTasks.id, { onDelete: 'cascade' }),
    /** For photos of one student's homework or essay, chosen at upload. */
    studentId: integer('student_id').references(() => students.id),
    fileHash: text('file_hash').notNull(),
    fileName: text('file_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    recognitionStatus: smallint('recognition_status').notNull().default(0),
    /** What recognition read (pages, lines, failures), written once by the worker. */
    reading: jsonb('reading'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('grading_files_task_idx').on(t.taskId)],
);

/** One student's graded work in a task: machine result, the teacher's corrections, the final score. */
export const gradingResults = pgTable(
  'grading_results',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    taskId: integer('task_id').notNull().references(() => gradingTasks.id, { onDelete: 'cascade' }),
    studentId: integer('student_id').references(() => students.id),
    /** The student as the sheet identified them (QR id or student number), when not matched. */
    studentKey: text('student_key'),
    result: jsonb('result').notNull(),
    /** Teacher's corrections: points per item number. */
    review: jsonb('review'),
    score: real('score'),
    maxScore: real('max_score'),
    needsReview: boolean('needs_review').notNull().default(false),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('grading_results_task_idx').on(t.taskId)],
);

/**
 * School resources (教案/试卷/课件/其他). The bytes live in the file store under their sha256
 * (server/files); the row holds what the list and the download need.
 */
export const resources = pgTable(
  'resources',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    uploaderId: integer('uploader_id').notNull().references(() => users.id),
    gradeId: integer('grade_id').references(() => grades.id),
    subjectId: integer('subject_id').references(() => subjects.id),
    type: text('type').notNull(),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    fileHash: text('file_hash').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('resources_school_idx').on(t.tenantId, t.schoolId, t.createdAt), index('resources_hash_idx').on(t.fileHash)],
);

/**
 * The durable job queue (DESIGN.md "jobs"): workers claim rows with FOR UPDATE SKIP LOCKED and
 * hold a lease they renew by heartbeat; an expired lease means the worker died and another may
 * take the job. (kind, ref_id) is unique, so enqueueing the same work twice is one job.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    kind: text('kind').notNull(),
    refId: text('ref_id').notNull(),
    /** queued → running → done, or back to queued for a retry, or dead after the last attempt. */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    workerId: text('worker_id'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('jobs_ref_uq').on(t.kind, t.refId), index('jobs_claim_idx').on(t.state, t.runAt)],
);

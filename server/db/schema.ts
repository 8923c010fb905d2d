// The relational schema. Every tenant-owned row carries tenant_id so the tables can be
// distributed on it (DESIGN.md "scale-out"); platform rows (partners, sessions, subjects) do not.
import { sql } from 'drizzle-orm';
import { boolean, customType, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
  /** PartnerStatus (src/domain/partner.ts): 0 启用, 1 停用. A suspended partner's accounts cannot sign in or order. */
  status: smallint('status').notNull().default(0),
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
    /** ScoreDisclosure (src/domain/content.ts): what non-teachers see of a student's exam result. */
    scoreDisclosure: smallint('score_disclosure').notNull().default(1),
    /** The term the school runs now ('YYYY01' | 'YYYY02', one of its school_terms); null: by the calendar. */
    currentTerm: text('current_term'),
    /** The school's IANA time zone: every date the server makes for the school is on its clock. */
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
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
    /** A one-time password (npm run admin:create): every call but changing it is refused until then. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
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
    /** Last use, recorded at most about once a minute: the idle timeout counts from here. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Sign-in limits (server/auth/signInLimits.ts), one row per account ('account:<username>'), per
 * account and address ('pair:<address group>|<username>') and per address ('address:<address group>',
 * an IPv4 address or an IPv6 /64): `level` counts recent failed tries as it stood at `updated_at`,
 * the time of the last counted try; the rules there say how it fades and what it costs.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    key: text('key').primaryKey(),
    level: doublePrecision('level').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_throttles_updated_idx').on(t.updatedAt)],
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

/** 教室 (src/domain/rooms.ts): a declared CRUD resource, server/modules/crud/rooms.ts. */
export const rooms = pgTable(
  'rooms',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    name: text('name').notNull(),
    building: text('building'),
    floor: smallint('floor'),
    capacity: smallint('capacity'),
    kind: text('kind').notNull(),
    remark: text('remark'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rooms_name_uq').on(t.schoolId, t.name), index('rooms_school_idx').on(t.tenantId, t.schoolId)],
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
    /** TeacherStatus (src/domain/roles.ts): 0 在职, 1 停用, 2 离职. Not 在职: the account cannot sign in; the row stays for the records that name the teacher. */
    status: smallint('status').notNull().default(0),
    /** When the teacher was last set to 停用 or 离职. */
    statusAt: timestamp('status_at', { withTimezone: true }),
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

/**
 * What an appointed role covers, one row per scope (docs/api-roles.md): a grade (年级组长), a
 * subject with a grade or, grade null, every grade (学科组长), a class (班主任, role 'headTeacher').
 * The role itself is the user_roles row; both are read on every request, never kept in a session.
 */
export const leaderScopes = pgTable(
  'leader_scopes',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    gradeId: integer('grade_id').references(() => grades.id),
    subjectId: integer('subject_id').references(() => subjects.id),
    // A class that is deleted takes its 班主任 appointment with it.
    classId: integer('class_id').references(() => classes.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('leader_scopes_user_idx').on(t.userId, t.role),
    // One 班主任 per class.
    uniqueIndex('leader_scopes_head_teacher_uq').on(t.classId).where(sql`${t.role} = 'headTeacher'`),
  ],
);

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
    /** StudentStatus (src/domain/schoolYear.ts): 0 在读, 1 已毕业, 2 转出, 3 休学. */
    status: smallint('status').notNull().default(0),
    /** 0 未绑定, 1 已绑定. */
    bindingStatus: smallint('binding_status').notNull().default(0),
    graduatedYear: integer('graduated_year'),
    /**
     * The day the student left (转出, 休学, 毕业): from it on they leave the lists and the expected
     * counts of statistics; their records stay. Null while in school.
     */
    leftOn: date('left_on'),
    /** Needed for the consent age of 学生心声 (PIPL art. 31); unknown counts as under 14. */
    birthDate: date('birth_date'),
    /**
     * The student's terminal PIN (6 digits) that proves a named 学生心声 is theirs: an HMAC keyed
     * with the server's PIN key (server/auth/terminalPins.ts), never the digits; null: none set.
     */
    terminalPinHash: text('terminal_pin_hash'),
    /** Wrong PINs since the last right one; every 5th locks the PIN for a while (pin_locked_until). */
    pinFailures: smallint('pin_failures').notNull().default(0),
    pinLockedUntil: timestamp('pin_locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * The single characters and pairs of characters of the name and of the student number
     * (student_search_grams, migration 0037), kept by the database: the list's keyword search
     * ('%王喆%') finds its candidates through a GIN index on them instead of reading every
     * student of the school. Chinese names have no words for a trigram index to split on.
     */
    searchGrams: text('search_grams')
      .array()
      .generatedAlwaysAs(sql`student_search_grams(name, student_no)`),
  },
  (t) => [
    uniqueIndex('students_no_uq').on(t.schoolId, t.studentNo),
    index('students_search_grams_idx').using('gin', t.searchGrams),
    index('students_class_idx').on(t.tenantId, t.classId),
    // The student list pages a school by status and class, sorted by number or name.
    index('students_school_class_idx').on(t.schoolId, t.status, t.classId, t.studentNo),
    index('students_school_name_idx').on(t.schoolId, t.name),
    // 学情分析 counts each class's students in school, and finds those who left, across a region:
    // read off these alone instead of every student's row.
    index('students_enrolled_class_idx').on(t.tenantId, t.classId).where(sql`status = 0`),
    index('students_left_class_idx').on(t.tenantId, t.classId, t.leftOn).where(sql`status <> 0 AND left_on IS NOT NULL`),
  ],
);

/** One question of a piece of work (homework or exam), frozen when the work is given. */
export interface WorkItem {
  questionId: number;
  points: number;
  /** Printed number, e.g. "3" or "12(2)". */
  no: string;
  /** Only these students were given the item (a personalised 错题卷); absent: the whole class. */
  studentIds?: number[];
}

/**
 * A photo or PDF of an assignment a teacher uploaded to give as homework (with an answer key typed
 * in): kept in the file store by hash; a homework points at it once assigned.
 */
export const homeworkFiles = pgTable(
  'homework_files',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id),
    fileHash: text('file_hash').notNull(),
    fileName: text('file_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('homework_files_teacher_idx').on(t.tenantId, t.teacherId)],
);

/**
 * Homework a teacher assigned to one class (assigning to several classes writes one row per class,
 * sharing `batch_id`); the menu badge counts those awaiting review. Source type per SPEC §3:
 * 1 homework book (pages or sections of an exercise book), 0 custom homework (a list of questions).
 */
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
    sourceType: smallint('source_type').notNull().default(0),
    bookId: integer('book_id').references(() => exerciseBooks.id),
    /** What was chosen: book page ids or section ids, for the list to describe it. */
    selection: jsonb('selection').$type<{ pageIds?: number[]; sectionIds?: number[] }>(),
    items: jsonb('items').$type<WorkItem[]>().notNull().default([]),
    /** SPEC §3 term value: year + '01' | '02'. */
    term: text('term').notNull().default(''),
    /** Rows assigned together to several classes share this id (the first row's id). */
    batchId: integer('batch_id'),
    /** The teacher's note to the students (what to watch for, how to hand in), up to 200 characters. */
    note: text('note'),
    /**
     * Scheduled publishing: students see the homework from this time on. NULL is published when
     * assigned. Always before `due_at`.
     */
    startAt: timestamp('start_at', { withTimezone: true }),
    /** A homework given as a photo or PDF of the assignment (with its own answer key): that file. */
    fileId: integer('file_id').references(() => homeworkFiles.id),
  },
  (t) => [index('homeworks_teacher_idx').on(t.tenantId, t.teacherId, t.assignedAt), index('homeworks_class_idx').on(t.tenantId, t.classId, t.assignedAt)],
);

// ---- Teaching content: platform content (tenant_id NULL) shared by every school, or a school's own.

/** Knowledge points: a tree per subject and stage (2 = 初中), named after the curriculum standards. */
export const knowledgePoints = pgTable(
  'knowledge_points',
  {
    id: serial('id').primaryKey(),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    stage: smallint('stage').notNull(),
    parentId: integer('parent_id'),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('knowledge_points_subject_idx').on(t.subjectId, t.stage, t.parentId)],
);

/**
 * A question of the bank. Types (src/domain/content.ts): 1 单选, 2 多选, 3 判断, 4 填空, 5 解答,
 * 6 综合 (its sub-questions point at it with parent_id), 7 作文. Stems keep LaTeX as text ($…$).
 */
export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    stage: smallint('stage').notNull().default(2),
    gradeLevel: smallint('grade_level'),
    type: smallint('type').notNull(),
    stem: text('stem').notNull(),
    options: jsonb('options').$type<{ key: string; text: string }[]>(),
    /** 单选 'B', 多选 'AC', 判断 '对'/'错', 填空 blanks joined by '；', otherwise the model answer. */
    answer: text('answer').notNull().default(''),
    analysis: text('analysis').notNull().default(''),
    difficulty: smallint('difficulty').notNull(),
    points: real('points').notNull(),
    knowledgePointIds: integer('knowledge_point_ids').array().notNull().default(sql`'{}'::integer[]`),
    source: text('source'),
    parentId: integer('parent_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    /**
     * Set on an item of a homework's own answer key (a homework given as a photo or PDF): the
     * homework batch it belongs to (homeworks.batch_id). Such rows are not part of the bank.
     */
    homeworkBatchId: integer('homework_batch_id'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('questions_search_idx').on(t.subjectId, t.stage, t.type, t.difficulty),
    index('questions_kp_idx').using('gin', t.knowledgePointIds),
    index('questions_parent_idx').on(t.parentId),
  ],
);

/** 教辅/练习册: grade level 7–9, term 1 上册 / 2 下册. */
export const exerciseBooks = pgTable(
  'exercise_books',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    title: text('title').notNull(),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    gradeLevel: smallint('grade_level').notNull(),
    term: smallint('term').notNull(),
    edition: text('edition').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('exercise_books_grade_idx').on(t.gradeLevel, t.subjectId)],
);

export const bookChapters = pgTable(
  'book_chapters',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id').notNull().references(() => exerciseBooks.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('book_chapters_book_idx').on(t.bookId)],
);

export const bookSections = pgTable(
  'book_sections',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id').notNull().references(() => exerciseBooks.id, { onDelete: 'cascade' }),
    chapterId: integer('chapter_id').notNull().references(() => bookChapters.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    sortOrder: integer('sort_order').notNull(),
    knowledgePointId: integer('knowledge_point_id').references(() => knowledgePoints.id),
  },
  (t) => [index('book_sections_book_idx').on(t.bookId)],
);

/** A printed page of a book; `page_no` is the number printed on it. */
export const bookPages = pgTable(
  'book_pages',
  {
    id: serial('id').primaryKey(),
    bookId: integer('book_id').notNull().references(() => exerciseBooks.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id').notNull().references(() => bookSections.id, { onDelete: 'cascade' }),
    pageNo: integer('page_no').notNull(),
  },
  (t) => [uniqueIndex('book_pages_no_uq').on(t.bookId, t.pageNo), index('book_pages_section_idx').on(t.sectionId)],
);

/** Answer area of a question on its printed page, in millimetres from the page's top-left corner. */
export interface AnswerArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The questions of a page in printed order, with where each one's answer is written. */
export const bookPageQuestions = pgTable(
  'book_page_questions',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id').notNull().references(() => bookPages.id, { onDelete: 'cascade' }),
    questionId: integer('question_id').notNull().references(() => questions.id),
    sortOrder: integer('sort_order').notNull(),
    answerArea: jsonb('answer_area').$type<AnswerArea>().notNull(),
  },
  (t) => [uniqueIndex('book_page_questions_uq').on(t.pageId, t.questionId), index('book_page_questions_question_idx').on(t.questionId)],
);

/** The books a class uses for a course (what getExerciseBooksByClassId returns). */
export const classBooks = pgTable(
  'class_books',
  {
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    classId: integer('class_id').notNull().references(() => classes.id, { onDelete: 'cascade' }),
    bookId: integer('book_id').notNull().references(() => exerciseBooks.id),
    courseId: integer('course_id').notNull().references(() => courses.id),
  },
  (t) => [primaryKey({ columns: [t.classId, t.bookId] })],
);

/** 组卷: a teacher's paper, its sections and questions with points. */
export const papers = pgTable(
  'papers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    createdBy: integer('created_by').notNull().references(() => users.id),
    title: text('title').notNull(),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    gradeLevel: smallint('grade_level').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    totalPoints: real('total_points').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('papers_school_idx').on(t.tenantId, t.schoolId, t.createdBy)],
);

export const paperSections = pgTable(
  'paper_sections',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    paperId: integer('paper_id').notNull().references(() => papers.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [index('paper_sections_paper_idx').on(t.paperId)],
);

export const paperQuestions = pgTable(
  'paper_questions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    paperId: integer('paper_id').notNull().references(() => papers.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id').notNull().references(() => paperSections.id, { onDelete: 'cascade' }),
    questionId: integer('question_id').notNull().references(() => questions.id),
    sortOrder: integer('sort_order').notNull(),
    points: real('points').notNull(),
  },
  (t) => [index('paper_questions_paper_idx').on(t.paperId), index('paper_questions_question_idx').on(t.questionId)],
);

/** A paper given to classes on a date; `items` freezes the scored questions and their points. */
export const exams = pgTable(
  'exams',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    paperId: integer('paper_id').references(() => papers.id),
    gradeId: integer('grade_id').notNull().references(() => grades.id),
    courseId: integer('course_id').notNull().references(() => courses.id),
    title: text('title').notNull(),
    examDate: date('exam_date').notNull(),
    term: text('term').notNull(),
    fullMarks: real('full_marks').notNull(),
    items: jsonb('items').$type<WorkItem[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    /** 联考: the region's joint exam this school's sitting belongs to (the same paper, sat by several schools). */
    jointExamId: integer('joint_exam_id').references(() => jointExams.id),
    createdAt: createdAt(),
  },
  (t) => [index('exams_school_idx').on(t.tenantId, t.schoolId, t.examDate), index('exams_joint_idx').on(t.jointExamId)],
);

/**
 * 联考: one exam sat by several schools of a region. Each school's sitting stays an `exams` row of
 * its own tenant (its classes, its marking, its rollups) pointing here; the region report reads
 * them side by side. Not tenant-owned: it belongs to the region (`schools.region`), and only a
 * school of that region may point at it.
 */
export const jointExams = pgTable(
  'joint_exams',
  {
    id: serial('id').primaryKey(),
    region: text('region').notNull(),
    title: text('title').notNull(),
    subjectId: integer('subject_id').notNull().references(() => subjects.id),
    gradeLevel: smallint('grade_level').notNull(),
    examDate: date('exam_date').notNull(),
    term: text('term').notNull(),
    fullMarks: real('full_marks').notNull(),
    /** The researcher who made it (only they may delete it); null for one made otherwise (the demo seed). */
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('joint_exams_region_idx').on(t.region, t.examDate)],
);

export const examClasses = pgTable(
  'exam_classes',
  {
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    examId: integer('exam_id').notNull().references(() => exams.id, { onDelete: 'cascade' }),
    classId: integer('class_id').notNull().references(() => classes.id),
  },
  (t) => [primaryKey({ columns: [t.examId, t.classId] }), index('exam_classes_class_idx').on(t.tenantId, t.classId)],
);

// ---- Answer records: the one truth every report, wrong-answer book and badge reads.

/** Who wrote an answer record's grading: the machine, or a teacher's review (which wins). */
export const GradedBy = { machine: 1, review: 2 } as const;

/**
 * One row per student × question × piece of work (source type 0/1 → homeworks.id, 2 → exams.id).
 * Written only through server/modules/minerva/answers.ts (recordAnswers), which keeps the rollups
 * below current in the same transaction. The key is the primary key (no surrogate id: at tens of
 * millions of rows every byte and index counts) and leads with tenant_id, the distribution column.
 * class, school, subject, term and knowledge points are copied in at first write so reports never
 * join back to content or rosters, and a record stays with the class the work was given to.
 */
export const answerRecords = pgTable(
  'answer_records',
  {
    tenantId: integer('tenant_id').notNull(),
    sourceType: smallint('source_type').notNull(),
    sourceId: integer('source_id').notNull(),
    studentId: integer('student_id').notNull().references(() => students.id),
    questionId: integer('question_id').notNull(),
    schoolId: integer('school_id').notNull(),
    classId: integer('class_id').notNull(),
    subjectId: integer('subject_id').notNull(),
    term: text('term').notNull(),
    knowledgePointIds: integer('knowledge_point_ids').array().notNull(),
    isCorrect: boolean('is_correct').notNull(),
    score: real('score').notNull(),
    maxScore: real('max_score').notNull(),
    /** The student's answer as read (option letters for objective items). */
    answer: text('answer'),
    gradedBy: smallint('graded_by').notNull(),
    reviewerId: integer('reviewer_id'),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The term is in the key because the table is partitioned by term (a partitioned table's key must
    // hold its partition column); a piece of work belongs to one term, so the key means the same.
    primaryKey({ columns: [t.tenantId, t.sourceType, t.sourceId, t.studentId, t.questionId, t.term] }),
    // Wrong-answer books (a student's, a class's), newest first; wrong rows are the minority.
    index('answer_records_student_wrong_idx').on(t.tenantId, t.studentId, t.answeredAt).where(sql`NOT is_correct`),
    index('answer_records_class_wrong_idx').on(t.tenantId, t.classId, t.answeredAt).where(sql`NOT is_correct`),
    // A class's or a student's records of a term in a subject (the student wrong-answer book reads
    // them per student). The migration adds INCLUDE (question_id, is_correct, answered_at,
    // source_type, source_id), which Drizzle cannot declare, so the book reads the index alone.
    index('answer_records_student_term_idx').on(t.tenantId, t.studentId, t.term, t.subjectId),
    // A piece of work's records (option rates, upper and lower groups) are a prefix of the key.
  ],
);

const tally = () => ({
  answered: integer('answered').notNull().default(0),
  correct: integer('correct').notNull().default(0),
  score: real('score').notNull().default(0),
  maxScore: real('max_score').notNull().default(0),
});

/**
 * How many students a school has per class, status and binding status, kept by triggers on
 * `students` (migration 0039), whatever writes them. The student list counts its matches here
 * when it has no keyword: a sum over a few rows instead of a count over a school's students.
 * Class 0 stands for students without a class.
 */
export const studentCounts = pgTable(
  'student_counts',
  {
    tenantId: integer('tenant_id').notNull(),
    schoolId: integer('school_id').notNull(),
    classId: integer('class_id').notNull(),
    status: smallint('status').notNull(),
    bindingStatus: smallint('binding_status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.schoolId, t.classId, t.status, t.bindingStatus] })],
);

/** Rollup: one class's results on one question of one piece of work (score² for item variance). */
export const workQuestionStats = pgTable(
  'work_question_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    sourceType: smallint('source_type').notNull(),
    sourceId: integer('source_id').notNull(),
    classId: integer('class_id').notNull(),
    questionId: integer('question_id').notNull(),
    ...tally(),
    scoreSquares: real('score_squares').notNull().default(0),
  },
  // By question: whether a question was ever answered, and how it does across classes.
  (t) => [primaryKey({ columns: [t.tenantId, t.sourceType, t.sourceId, t.classId, t.questionId] }), index('work_question_stats_question_idx').on(t.questionId)],
);

/** Rollup: one student's total on one piece of work (submitted = a row exists). */
export const workStudentStats = pgTable(
  'work_student_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    sourceType: smallint('source_type').notNull(),
    sourceId: integer('source_id').notNull(),
    studentId: integer('student_id').notNull(),
    classId: integer('class_id').notNull(),
    ...tally(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sourceType, t.sourceId, t.studentId] }), index('work_student_stats_class_idx').on(t.tenantId, t.sourceType, t.sourceId, t.classId)],
);

/**
 * Rollup: one class's hand-ins of one piece of work, summed from work_student_stats (kept by the
 * same write). 学情分析 sums these: a region's term is tens of thousands of rows, where its
 * students' rows are millions. Bands count students by their score rate on the work (excellent
 * ≥ 90 %, good ≥ 70 %, pass ≥ 60 %, fail below; students with no points to score are in none).
 */
export const workClassStats = pgTable(
  'work_class_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    sourceType: smallint('source_type').notNull(),
    sourceId: integer('source_id').notNull(),
    classId: integer('class_id').notNull(),
    submitted: integer('submitted').notNull().default(0),
    score: doublePrecision('score').notNull().default(0),
    maxScore: doublePrecision('max_score').notNull().default(0),
    excellent: integer('excellent').notNull().default(0),
    good: integer('good').notNull().default(0),
    pass: integer('pass').notNull().default(0),
    fail: integer('fail').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.sourceType, t.sourceId, t.classId] })],
);

/**
 * Rollup: the students of a class who handed in at least one piece of the term's work of a course,
 * and (course 0) of any course: 学情分析's participation counts these rows instead of finding the
 * distinct students among all of a scope's hand-ins.
 */
export const classParticipants = pgTable(
  'class_participants',
  {
    tenantId: integer('tenant_id').notNull(),
    term: text('term').notNull(),
    classId: integer('class_id').notNull(),
    courseId: integer('course_id').notNull(),
    studentId: integer('student_id').notNull(),
  },
  // By course first: course 0's rows (any course) are one range of a term, read in class order.
  (t) => [primaryKey({ columns: [t.tenantId, t.term, t.courseId, t.classId, t.studentId] })],
);

/**
 * Rollup: a school's answers to one question in a term's work of a course (work_question_stats
 * summed over the school's classes and pieces of work). 学情分析's 高频错题 of whole schools reads
 * these: a region's term is a few rows per question where work_question_stats has one per class
 * and piece of work.
 */
export const schoolQuestionStats = pgTable(
  'school_question_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    term: text('term').notNull(),
    schoolId: integer('school_id').notNull(),
    courseId: integer('course_id').notNull(),
    questionId: integer('question_id').notNull(),
    answered: integer('answered').notNull().default(0),
    correct: integer('correct').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.term, t.schoolId, t.courseId, t.questionId] })],
);

/** Rollup: a class × knowledge point per day (time ranges sum days), with the term for term views. */
export const classKnowledgeStats = pgTable(
  'class_knowledge_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    classId: integer('class_id').notNull(),
    knowledgePointId: integer('knowledge_point_id').notNull(),
    day: date('day').notNull(),
    subjectId: integer('subject_id').notNull(),
    term: text('term').notNull(),
    ...tally(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.classId, t.knowledgePointId, t.day] })],
);

/** Rollup: a student × knowledge point per term. */
export const studentKnowledgeStats = pgTable(
  'student_knowledge_stats',
  {
    tenantId: integer('tenant_id').notNull(),
    studentId: integer('student_id').notNull(),
    knowledgePointId: integer('knowledge_point_id').notNull(),
    term: text('term').notNull(),
    subjectId: integer('subject_id').notNull(),
    ...tally(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.studentId, t.term, t.knowledgePointId] })],
);

/**
 * The teacher's word on one question of a student's wrong-answer book: the mastery they set (the
 * state derived from later answers starts from it) and the cause of the error. Rows exist only
 * where a teacher said something; everything else is derived from answer_records at read.
 */
export const studentWrongMarks = pgTable(
  'student_wrong_marks',
  {
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    studentId: integer('student_id').notNull().references(() => students.id, { onDelete: 'cascade' }),
    questionId: integer('question_id').notNull(),
    /** 0 未掌握, 1 巩固中, 2 已掌握; null: derived only from answers. */
    mastery: smallint('mastery'),
    /** When the teacher set the mastery: answers after it move it on (cause edits do not). */
    masteryAt: timestamp('mastery_at', { withTimezone: true }),
    /** 1 概念不清, 2 计算失误, 3 审题错误, 4 粗心, 5 其他; null: not set. */
    cause: smallint('cause'),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.studentId, t.questionId] })],
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
    /** 网上阅卷: whether markers see the students' names (the task owner's choice; anonymous by default). */
    markingShowNames: boolean('marking_show_names').notNull().default(false),
    /** 网上阅卷 双评: the questions marked twice, by number, with the points two marks may differ by. */
    markingDouble: jsonb('marking_double'),
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
 * 网上阅卷 rubric items of a task's hand-marked question ("列式正确 +2", "计算错误 −1"): a student's
 * points for the question are the sum of the items applied to their paper, bounded to 0..full marks.
 */
export const gradingRubricItems = pgTable(
  'grading_rubric_items',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    taskId: integer('task_id').notNull().references(() => gradingTasks.id, { onDelete: 'cascade' }),
    no: smallint('no').notNull(),
    label: text('label').notNull(),
    points: real('points').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('grading_rubric_items_task_idx').on(t.taskId, t.no)],
);

/** 网上阅卷 split marking: the teachers a task owner gave a hand-marked question to. */
export const gradingMarkers = pgTable(
  'grading_markers',
  {
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    taskId: integer('task_id').notNull().references(() => gradingTasks.id, { onDelete: 'cascade' }),
    no: smallint('no').notNull(),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.no, t.teacherId] }), index('grading_markers_teacher_idx').on(t.teacherId)],
);

/**
 * Each marker's points for one paper's question ('mark'), and the owner's arbitration ('final') of a
 * 双评 paper whose two marks differ too much. The result's `review` holds the points that count.
 */
export const gradingMarks = pgTable(
  'grading_marks',
  {
    resultId: integer('result_id').notNull().references(() => gradingResults.id, { onDelete: 'cascade' }),
    no: smallint('no').notNull(),
    kind: text('kind').notNull(),
    teacherId: integer('teacher_id').notNull().references(() => teachers.id, { onDelete: 'cascade' }),
    score: real('score').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.no, t.kind, t.teacherId] })],
);

/** Which rubric items are applied to which result (the paper of one student). */
export const gradingRubricMarks = pgTable(
  'grading_rubric_marks',
  {
    resultId: integer('result_id').notNull().references(() => gradingResults.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').notNull().references(() => gradingRubricItems.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.itemId] }), index('grading_rubric_marks_item_idx').on(t.itemId)],
);

/**
 * The marker's pen on a paper of a hand-marked question (✓, ✗, a circle, an underline, a few words),
 * one list per paper and question, last writer wins (with 双评 both markers draw on the same paper).
 * Positions are fractions of the question's region on the sheet layout, so they land on the same spot
 * in the marking crop, the student view and any print, whatever the scan's resolution.
 */
export const gradingAnnotations = pgTable(
  'grading_annotations',
  {
    resultId: integer('result_id').notNull().references(() => gradingResults.id, { onDelete: 'cascade' }),
    no: integer('no').notNull(),
    teacherId: integer('teacher_id').notNull(),
    marks: jsonb('marks').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.no] })],
);

/**
 * 讲评 sample answers: the papers a task's owner picked to show for one question on the projector,
 * in the order shown (样例A, B, …). The screen never names the student; the row keeps the result so
 * a regraded or deleted paper follows (a deleted result takes its pick with it).
 */
export const lectureSamples = pgTable(
  'lecture_samples',
  {
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    taskId: integer('task_id').notNull().references(() => gradingTasks.id, { onDelete: 'cascade' }),
    no: smallint('no').notNull(),
    resultId: integer('result_id').notNull().references(() => gradingResults.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.no, t.resultId] })],
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

/** Raw bytes (PostgreSQL bytea), as Buffers. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * FILE_STORE=postgres (server/files/postgresStore.ts): the content-addressed files in the database,
 * so API processes on several machines share them. A file is its chunks in order (at most 256 KiB
 * each), written with its `stored_files` row in one transaction, so a half-written file is never seen.
 */
export const storedFiles = pgTable('stored_files', {
  hash: text('hash').primaryKey(),
  size: integer('size').notNull(),
  chunks: integer('chunks').notNull(),
  createdAt: createdAt(),
});

export const fileChunks = pgTable(
  'file_chunks',
  {
    hash: text('hash')
      .notNull()
      .references(() => storedFiles.hash, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hash, t.seq] })],
);

/**
 * Periodic sweeps (server/jobs/sweeps.ts): when each last ran and where, so with several API
 * processes a sweep runs once per period, whichever process gets there first.
 */
export const sweepRuns = pgTable('sweep_runs', {
  name: text('name').primaryKey(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  ranBy: text('ran_by').notNull(),
  runs: integer('runs').notNull().default(0),
});

// ── Partner back office: print terminals and their usage ────────────────────────────────────
// Terminals belong to partners (platform rows); bound to a school they also carry its tenant.
// Usage arrives through the device API (server/modules/devices) and is rolled up per day on
// write, so the data boards read a few thousand rows, not every print job.

/** A print terminal. `secret` signs its requests (HMAC), so it is kept, never sent to the web app. */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    serial: text('serial').notNull(),
    model: text('model').notNull(),
    /** The partner that owns the terminal (bought it or placed it). */
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    /** The school it is deployed in; null when not deployed. */
    schoolId: integer('school_id').references(() => schools.id),
    tenantId: integer('tenant_id').references(() => tenants.id),
    secret: text('secret').notNull(),
    firmware: text('firmware').notNull(),
    paperCapacity: integer('paper_capacity').notNull().default(500),
    paperLeft: integer('paper_left').notNull().default(0),
    jammed: boolean('jammed').notNull().default(false),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }),
    /** The latest sign of life: a heartbeat, or the time of the latest print job it reported. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    boundAt: timestamp('bound_at', { withTimezone: true }),
    /** Set by the sweep when the beats stopped (an `offline` event was written); a beat clears it. */
    offlineAt: timestamp('offline_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('devices_serial_uq').on(t.serial), index('devices_partner_idx').on(t.partnerId, t.id), index('devices_school_idx').on(t.schoolId)],
);

/** Binding history: which school a terminal served, from when to when, and who moved it. */
export const deviceBindings = pgTable(
  'device_bindings',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    boundBy: integer('bound_by').references(() => users.id),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
    unboundBy: integer('unbound_by').references(() => users.id),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
  },
  (t) => [index('device_bindings_device_idx').on(t.deviceId, t.boundAt)],
);

/**
 * What happened to a terminal, for its history: back online after missed beats (detail: the
 * offline seconds), paper low, refilled, jammed, jam cleared, firmware changed, bound, unbound.
 */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    detail: jsonb('detail'),
  },
  (t) => [index('device_events_device_idx').on(t.deviceId, t.at)],
);

/**
 * An alarm about a deployed terminal (src/domain/alarms.ts): offline too long, low on paper,
 * jammed. `since` names the episode (the last beat before going silent, the paperLow or jammed
 * event), so an alarm marked 处理完成 while the condition lasts is not opened again for the same
 * episode. Closed by a partner (resolved_by, note) or by itself when the condition clears.
 */
export const deviceAlarms = pgTable(
  'device_alarms',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id),
    /** The terminal's owner, which decides whose subtree sees the alarm. */
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    schoolId: integer('school_id').references(() => schools.id),
    kind: text('kind').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    detail: jsonb('detail'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => users.id),
    autoResolved: boolean('auto_resolved').notNull().default(false),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('device_alarms_episode_uq').on(t.deviceId, t.kind, t.since),
    index('device_alarms_partner_idx').on(t.partnerId, t.openedAt),
    index('device_alarms_open_idx').on(t.deviceId).where(sql`resolved_at IS NULL`),
  ],
);

/** Nonces of signed device requests within the timestamp window, so a replay is refused. */
export const deviceNonces = pgTable(
  'device_nonces',
  {
    deviceId: integer('device_id').notNull(),
    nonce: text('nonce').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.nonce] }), index('device_nonces_seen_idx').on(t.seenAt)],
);

/** A student or teacher signing in on a terminal (one use). */
export const deviceSignIns = pgTable(
  'device_sign_ins',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id),
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    /** UserKind: 1 student (students.id), 2 teacher (teachers.id). */
    userKind: smallint('user_kind').notNull(),
    userId: integer('user_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('device_sign_ins_school_idx').on(t.schoolId, t.at), index('device_sign_ins_user_idx').on(t.tenantId, t.userKind, t.userId, t.at)],
);

/** One print job as the terminal reported it; (device, clientJobId) makes a retried upload one job. */
export const printJobs = pgTable(
  'print_jobs',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id),
    clientJobId: text('client_job_id').notNull(),
    /** The device's owner when it printed, so history stays with who sold it. */
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    userKind: smallint('user_kind').notNull(),
    userId: integer('user_id').notNull(),
    /** PRINT_APPS (src/domain/partner.ts). */
    app: smallint('app').notNull(),
    subjectId: integer('subject_id'),
    pages: integer('pages').notNull(),
    printedAt: timestamp('printed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('print_jobs_client_uq').on(t.deviceId, t.clientJobId),
    index('print_jobs_device_idx').on(t.deviceId, t.printedAt),
    index('print_jobs_school_idx').on(t.schoolId, t.printedAt),
    index('print_jobs_user_idx').on(t.tenantId, t.userKind, t.userId, t.printedAt),
  ],
);

/**
 * Print volume per partner, school, day (China time), app, subject (0: none) and user kind.
 * Kept on write with the print jobs; the boards sum it.
 */
export const printDaily = pgTable(
  'print_daily',
  {
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    day: date('day').notNull(),
    app: smallint('app').notNull(),
    subjectId: integer('subject_id').notNull(),
    userKind: smallint('user_kind').notNull(),
    jobs: integer('jobs').notNull(),
    pages: integer('pages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day, t.schoolId, t.app, t.subjectId, t.userKind] }), index('print_daily_school_idx').on(t.schoolId, t.day)],
);

/** Per terminal and day: jobs, pages and sign-ins (active terminals, a terminal's history). */
export const deviceDaily = pgTable(
  'device_daily',
  {
    deviceId: integer('device_id').notNull(),
    day: date('day').notNull(),
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    jobs: integer('jobs').notNull().default(0),
    pages: integer('pages').notNull().default(0),
    signIns: integer('sign_ins').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.day] }), index('device_daily_partner_idx').on(t.partnerId, t.day)],
);

/**
 * Who used a terminal on a day (sign-in or print), once; its first row of a day counts the user
 * in usage_daily. Rows older than the device API's backfill window may be pruned.
 */
export const usageUserDays = pgTable(
  'usage_user_days',
  {
    day: date('day').notNull(),
    tenantId: integer('tenant_id').notNull(),
    userKind: smallint('user_kind').notNull(),
    userId: integer('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.tenantId, t.userKind, t.userId] })],
);

/**
 * Per partner, school, day and user kind: distinct users (daily active), uses (sign-ins), and the
 * print jobs and pages of print_daily without its app and subject, so the boards' KPI cards, 总体
 * chart and school list read one row per school and day instead of one per app and subject.
 */
export const usageDaily = pgTable(
  'usage_daily',
  {
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    day: date('day').notNull(),
    userKind: smallint('user_kind').notNull(),
    users: integer('users').notNull().default(0),
    uses: integer('uses').notNull().default(0),
    jobs: integer('jobs').notNull().default(0),
    pages: integer('pages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day, t.schoolId, t.userKind] }), index('usage_daily_school_idx').on(t.schoolId, t.day)],
);

/** usage_daily by month (`month`: its first day): a year's board reads 12 rows per school, not 365. */
export const usageMonthly = pgTable(
  'usage_monthly',
  {
    partnerId: integer('partner_id').notNull(),
    schoolId: integer('school_id').notNull(),
    month: date('month').notNull(),
    userKind: smallint('user_kind').notNull(),
    users: integer('users').notNull().default(0),
    uses: integer('uses').notNull().default(0),
    jobs: integer('jobs').notNull().default(0),
    pages: integer('pages').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.month, t.schoolId, t.userKind] })],
);

/**
 * print_daily without the school: what 按应用 / 按学科 sum over a subtree, one row per partner, day,
 * app, subject and user kind however many schools the partner's terminals stand in.
 */
export const printPartnerDaily = pgTable(
  'print_partner_daily',
  {
    partnerId: integer('partner_id').notNull(),
    day: date('day').notNull(),
    app: smallint('app').notNull(),
    subjectId: integer('subject_id').notNull(),
    userKind: smallint('user_kind').notNull(),
    jobs: integer('jobs').notNull(),
    pages: integer('pages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day, t.app, t.subjectId, t.userKind] })],
);

/** print_partner_daily by month (`month`: its first day). */
export const printPartnerMonthly = pgTable(
  'print_partner_monthly',
  {
    partnerId: integer('partner_id').notNull(),
    month: date('month').notNull(),
    app: smallint('app').notNull(),
    subjectId: integer('subject_id').notNull(),
    userKind: smallint('user_kind').notNull(),
    jobs: integer('jobs').notNull(),
    pages: integer('pages').notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.month, t.app, t.subjectId, t.userKind] })],
);

/** A user's saved list filters (orders, devices…), kept on the server so they survive sign-out. */
export const savedFilters = pgTable(
  'saved_filters',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    name: text('name').notNull(),
    filter: jsonb('filter').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('saved_filters_uq').on(t.userId, t.resource, t.name)],
);

/**
 * The columns a user chose to show in a list (by field source, in order), kept with the saved
 * filters on the server so a sign-out, which clears the browser's store, does not lose them.
 */
export const listColumns = pgTable(
  'list_columns',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    columns: jsonb('columns').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.resource] })],
);

// ── Partner back office: paper orders, payments and channel settlement ─────────────────────
// Money is integer fen everywhere. Every payment goes to the platform's merchant account; a
// partner's margin on its direct children's purchases is kept in the settlement ledger and paid
// out by monthly statements (server/modules/partner/settlement).

/** Paper packs on sale, with the wholesale price of each partner level (fen). */
export const paperPacks = pgTable('paper_packs', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  sheets: integer('sheets').notNull(),
  /** Price at which a level-1 partner buys from the platform. */
  priceL1Fen: integer('price_l1_fen').notNull(),
  /** … a level-2 partner from its level-1 parent. */
  priceL2Fen: integer('price_l2_fen').notNull(),
  /** … a level-3 partner from its level-2 parent. */
  priceL3Fen: integer('price_l3_fen').notNull(),
  /** The platform's ceiling (建议零售价): no partner sells a pack to its child above it. */
  listPriceFen: integer('list_price_fen').notNull(),
  sort: integer('sort').notNull().default(0),
});

/**
 * A partner's own price of a pack, set by its parent (or the platform for a level-1 partner)
 * between the parent's cost and the pack's list price; without a row, the level's price holds.
 */
export const partnerPackPrices = pgTable(
  'partner_pack_prices',
  {
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    packId: integer('pack_id').notNull().references(() => paperPacks.id),
    priceFen: integer('price_fen').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.packId] })],
);

/** A partner's paper order. The seller is the buyer's parent, or null for the platform. */
export const partnerOrders = pgTable(
  'partner_orders',
  {
    id: serial('id').primaryKey(),
    orderNo: text('order_no').notNull(),
    buyerId: integer('buyer_id').notNull().references(() => partners.id),
    sellerId: integer('seller_id').references(() => partners.id),
    /** The buyer's level when it ordered: which price column applied. */
    buyerLevel: smallint('buyer_level').notNull(),
    amountFen: integer('amount_fen').notNull(),
    /** The seller's cost of these items at its own level's price; amount − cost is its margin. */
    sellerCostFen: integer('seller_cost_fen'),
    /** OrderStatus (src/domain/orders.ts). */
    status: smallint('status').notNull().default(1),
    payStatus: smallint('pay_status').notNull().default(0),
    refundStatus: smallint('refund_status').notNull().default(0),
    remark: text('remark'),
    provider: text('provider').notNull(),
    codeUrl: text('code_url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** What the buyer paid (or holds) from its balance; the gateway takes the rest. */
    balanceFen: integer('balance_fen').notNull().default(0),
    /** The gateway's trade number for the rest when part is paid from the balance (PB…); else the order number is the trade. */
    payTradeNo: text('pay_trade_no'),
    /** FulfilStatus (src/domain/fulfilment.ts): 待发货 → 部分发货 → 已发货 → 已收货, apart from payment. */
    fulfilStatus: smallint('fulfil_status').notNull().default(1),
    /** The address it ships to, copied from the buyer's book when placed (null: placed before addresses). */
    shipTo: jsonb('ship_to').$type<{ receiver: string; phone: string; province: string; city: string; district: string; detail: string }>(),
    /** The last shipment: the automatic receipt counts from it. */
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    /** Who confirmed receipt; null with receivedAt set: confirmed automatically. */
    receivedBy: integer('received_by').references(() => users.id),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('partner_orders_no_uq').on(t.orderNo),
    index('partner_orders_fulfil_idx').on(t.fulfilStatus, t.shippedAt),
    uniqueIndex('partner_orders_pay_trade_uq').on(t.payTradeNo),
    index('partner_orders_buyer_idx').on(t.buyerId, t.createdAt),
    index('partner_orders_seller_idx').on(t.sellerId, t.createdAt),
    index('partner_orders_open_idx').on(t.status, t.expiresAt),
  ],
);

/** The packs of an order, with the prices as they were when it was placed. */
export const partnerOrderItems = pgTable(
  'partner_order_items',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => partnerOrders.id),
    packId: integer('pack_id').notNull().references(() => paperPacks.id),
    name: text('name').notNull(),
    sheets: integer('sheets').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceFen: integer('unit_price_fen').notNull(),
    /** The seller's unit cost (its own level's price) when a partner sells; null when the platform does. */
    unitCostFen: integer('unit_cost_fen'),
    amountFen: integer('amount_fen').notNull(),
    /** Packs shipped so far (order_shipments); never above quantity. */
    shippedQuantity: integer('shipped_quantity').notNull().default(0),
    /** Packs in returns (asked or refunded); never above shippedQuantity. */
    returnedQuantity: integer('returned_quantity').notNull().default(0),
  },
  (t) => [index('partner_order_items_order_idx').on(t.orderId)],
);

/** A level-1 partner's top-up of its account, paid like an order. */
export const partnerRecharges = pgTable(
  'partner_recharges',
  {
    id: serial('id').primaryKey(),
    rechargeNo: text('recharge_no').notNull(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    amountFen: integer('amount_fen').notNull(),
    payStatus: smallint('pay_status').notNull().default(0),
    provider: text('provider').notNull(),
    codeUrl: text('code_url'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('partner_recharges_no_uq').on(t.rechargeNo), index('partner_recharges_partner_idx').on(t.partnerId, t.createdAt)],
);

/**
 * Every payment notice the gateway confirmed, once per gateway transaction (a repeated notice
 * finds its row). `outcome`: 'applied', or 'refund_due' when the order was no longer payable.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    outTradeNo: text('out_trade_no').notNull(),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id').notNull(),
    amountFen: integer('amount_fen').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    outcome: text('outcome').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('payments_transaction_uq').on(t.provider, t.transactionId), index('payments_trade_idx').on(t.outTradeNo)],
);

/** A refund of a paid order (whole order), requested by its buyer or due after a late payment. */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: serial('id').primaryKey(),
    refundNo: text('refund_no').notNull(),
    orderId: integer('order_id').notNull().references(() => partnerOrders.id),
    amountFen: integer('amount_fen').notNull(),
    reason: text('reason').notNull(),
    /** RefundStatus: 1 退款中, 2 已退款. */
    status: smallint('status').notNull().default(1),
    requestedBy: integer('requested_by').references(() => users.id),
    createdAt: createdAt(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** The part of this refund that goes back to the buyer's balance; the gateway refunds the rest. */
    balanceFen: integer('balance_fen').notNull().default(0),
    /** The seller's margin this refund takes back (a return's lines); null: the whole margin (a refund before dispatch). */
    reversalFen: integer('reversal_fen'),
    /** Times the refund sweep asked the gateway again after the first call failed (bounded). */
    resendCount: integer('resend_count').notNull().default(0),
    lastResendAt: timestamp('last_resend_at', { withTimezone: true }),
    /** Why the last call to the gateway failed; null once one succeeded. */
    lastResendError: text('last_resend_error'),
  },
  // An order has one refund before dispatch, or one per return after it.
  (t) => [uniqueIndex('order_refunds_no_uq').on(t.refundNo), index('order_refunds_order_idx').on(t.orderId)],
);

/** A partner's 收货地址 book; an order keeps a copy of the one it ships to. */
export const partnerAddresses = pgTable(
  'partner_addresses',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    receiver: text('receiver').notNull(),
    phone: text('phone').notNull(),
    province: text('province').notNull(),
    city: text('city').notNull(),
    district: text('district').notNull(),
    detail: text('detail').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('partner_addresses_partner_idx').on(t.partnerId), uniqueIndex('partner_addresses_default_uq').on(t.partnerId).where(sql`is_default`)],
);

/** A parcel the seller sent for an order: which lines and how many, by which carrier and tracking number. */
export const orderShipments = pgTable(
  'order_shipments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull().references(() => partnerOrders.id),
    carrier: text('carrier').notNull(),
    trackingNo: text('tracking_no').notNull(),
    lines: jsonb('lines').$type<{ itemId: number; name: string; quantity: number }[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('order_shipments_order_idx').on(t.orderId)],
);

/** Goods the buyer sends back after dispatch; the seller confirms them received and the lines are refunded. */
export const orderReturns = pgTable(
  'order_returns',
  {
    id: serial('id').primaryKey(),
    returnNo: text('return_no').notNull(),
    orderId: integer('order_id').notNull().references(() => partnerOrders.id),
    lines: jsonb('lines').$type<{ itemId: number; name: string; quantity: number }[]>().notNull(),
    amountFen: integer('amount_fen').notNull(),
    /** The seller's margin on these lines (taken back with the refund). */
    marginFen: integer('margin_fen').notNull().default(0),
    reason: text('reason').notNull(),
    carrier: text('carrier').notNull(),
    trackingNo: text('tracking_no').notNull(),
    /** ReturnStatus: 1 待卖方确认收货, 2 已收货（已退款）. */
    status: smallint('status').notNull().default(1),
    refundId: integer('refund_id').references(() => orderRefunds.id),
    requestedBy: integer('requested_by').references(() => users.id),
    createdAt: createdAt(),
    receivedBy: integer('received_by').references(() => users.id),
    receivedAt: timestamp('received_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('order_returns_no_uq').on(t.returnNo), index('order_returns_order_idx').on(t.orderId)],
);

/**
 * A payment refunded on its own: a second payment for an order or recharge already paid, or money
 * that arrives for a cancelled order whose refund already exists. The order (and its margin) is
 * not touched; only this payment goes back.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    refundNo: text('refund_no').notNull(),
    paymentId: integer('payment_id').notNull().references(() => payments.id),
    outTradeNo: text('out_trade_no').notNull(),
    amountFen: integer('amount_fen').notNull(),
    reason: text('reason').notNull(),
    /** RefundStatus: 1 退款中, 2 已退款. */
    status: smallint('status').notNull().default(1),
    createdAt: createdAt(),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('payment_refunds_no_uq').on(t.refundNo), uniqueIndex('payment_refunds_payment_uq').on(t.paymentId), index('payment_refunds_trade_idx').on(t.outTradeNo)],
);

/** The sandbox gateway's own books (the other side of the sandbox provider), as a gateway keeps them. */
export const sandboxTrades = pgTable('sandbox_trades', {
  outTradeNo: text('out_trade_no').primaryKey(),
  transactionId: text('transaction_id').notNull(),
  amountFen: integer('amount_fen').notNull(),
  subject: text('subject').notNull(),
  /** NOTPAY, SUCCESS, CLOSED. */
  state: text('state').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const sandboxRefunds = pgTable('sandbox_refunds', {
  outRefundNo: text('out_refund_no').primaryKey(),
  outTradeNo: text('out_trade_no').notNull(),
  amountFen: integer('amount_fen').notNull(),
  /** PROCESSING, SUCCESS. */
  state: text('state').notNull(),
  createdAt: createdAt(),
  doneAt: timestamp('done_at', { withTimezone: true }),
});

/**
 * The settlement ledger: a margin when a child's order is paid, its reversal when that order is
 * refunded. Each entry names its order (and refund); it can be settled after the freeze period
 * and belongs to at most one statement.
 */
export const settlementEntries = pgTable(
  'settlement_entries',
  {
    id: serial('id').primaryKey(),
    /** The partner that earns (the order's seller). */
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    orderId: integer('order_id').notNull().references(() => partnerOrders.id),
    refundId: integer('refund_id').references(() => orderRefunds.id),
    /** EntryKind: 1 margin, 2 reversal. */
    kind: smallint('kind').notNull(),
    amountFen: integer('amount_fen').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    settleableAt: timestamp('settleable_at', { withTimezone: true }).notNull(),
    statementId: integer('statement_id'),
  },
  (t) => [
    // One margin per order; one reversal per refund (an order refunded by returns has several).
    uniqueIndex('settlement_entries_margin_uq').on(t.orderId).where(sql`kind = 1`),
    uniqueIndex('settlement_entries_refund_uq').on(t.refundId),
    index('settlement_entries_open_idx').on(t.partnerId, t.statementId, t.settleableAt),
  ],
);

/** A monthly statement of a partner's settleable entries: 待确认 → 已确认 → 已结算, or 已驳回. */
export const settlementStatements = pgTable(
  'settlement_statements',
  {
    id: serial('id').primaryKey(),
    statementNo: text('statement_no').notNull(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    /** Who pays it out: the partner's parent, or null for the platform. */
    payerId: integer('payer_id').references(() => partners.id),
    /** 'YYYY-MM' (China time). */
    period: text('period').notNull(),
    amountFen: integer('amount_fen').notNull(),
    entryCount: integer('entry_count').notNull(),
    /** StatementStatus (src/domain/orders.ts). */
    status: smallint('status').notNull().default(1),
    rejectReason: text('reject_reason'),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('settlement_statements_no_uq').on(t.statementNo), uniqueIndex('settlement_statements_period_uq').on(t.partnerId, t.period)],
);

/**
 * A guardian's consent for a student under 14 to write 学生心声 (PIPL art. 31), recorded by the
 * school admin from the signed paper form: one row per student, the latest recording wins.
 */
export const guardianConsents = pgTable('guardian_consents', {
  studentId: integer('student_id')
    .primaryKey()
    .references(() => students.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  schoolId: integer('school_id').notNull().references(() => schools.id),
  guardianName: text('guardian_name').notNull(),
  consentedOn: date('consented_on').notNull(),
  recordedBy: integer('recorded_by').references(() => users.id),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * 学生心声: a message a student wrote on a terminal. `studentId` is kept even when anonymous (a
 * confirmed 高危 message may be revealed, with a reason: routes/reveal.ts) and never leaves the
 * server otherwise. Class and grade are as they stood when written. `content` is deleted by the
 * retention sweep; the row stays for the counts.
 */
export const heartVoices = pgTable(
  'heart_voices',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    studentId: integer('student_id').references(() => students.id, { onDelete: 'set null' }),
    gradeId: integer('grade_id').references(() => grades.id),
    classId: integer('class_id').references(() => classes.id),
    deviceId: integer('device_id').references(() => devices.id),
    anonymous: boolean('anonymous').notNull(),
    /** The writer proved who they are with their terminal PIN (always for a named message since PINs exist). */
    pinVerified: boolean('pin_verified').notNull().default(false),
    category: smallint('category').notNull(),
    mood: smallint('mood'),
    content: text('content'),
    /** The lexicon's suggestion (src/domain/heartVoices.ts RiskLevel) and the kinds of signal found. */
    suggestedLevel: smallint('suggested_level').notNull(),
    riskTypes: jsonb('risk_types').$type<string[]>().notNull().default([]),
    confirmedLevel: smallint('confirmed_level'),
    status: smallint('status').notNull().default(0),
    createdAt: createdAt(),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /**
     * A suspected 高危 message still unconfirmed: when the psychology teachers were reminded (after
     * 24 h) and the principals told (after 48 h). Set in the same statement that claims the reminder,
     * so each is sent once, by whichever process gets there first, across restarts.
     */
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
  },
  (t) => [
    index('heart_voices_school_idx').on(t.schoolId, t.createdAt),
    index('heart_voices_purge_idx').on(t.status, t.handledAt),
    // The reminder sweep reads only the unconfirmed high-risk messages.
    index('heart_voices_unconfirmed_idx').on(t.createdAt).where(sql`confirmed_level IS NULL AND suggested_level = 3`),
  ],
);

/** The follow-up log of a message: level confirmations, notes, contacts, the outcome. */
export const heartVoiceFollowUps = pgTable(
  'heart_voice_follow_ups',
  {
    id: serial('id').primaryKey(),
    voiceId: integer('voice_id')
      .notNull()
      .references(() => heartVoices.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id),
    kind: smallint('kind').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('heart_voice_follow_ups_voice_idx').on(t.voiceId)],
);

/** Every read of a message (and every reveal of an anonymous writer, with its reason): who, when. */
export const heartVoiceReads = pgTable(
  'heart_voice_reads',
  {
    id: serial('id').primaryKey(),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    voiceId: integer('voice_id')
      .notNull()
      .references(() => heartVoices.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id),
    /** 1 read, 2 revealed the anonymous writer. */
    action: smallint('action').notNull(),
    reason: text('reason'),
    /** The page visit a read belongs to (the client's id for one opening of the page): one row per visit. */
    visitId: text('visit_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('heart_voice_reads_school_idx').on(t.schoolId, t.createdAt),
    uniqueIndex('heart_voice_reads_visit_idx').on(t.voiceId, t.userId, t.visitId).where(sql`visit_id IS NOT NULL`),
  ],
);

/** In-app notices: a high-risk message to the psychology teachers, a reveal to the principal. */
export const heartNotices = pgTable(
  'heart_notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    voiceId: integer('voice_id').references(() => heartVoices.id, { onDelete: 'cascade' }),
    /** 1 疑似高危心声, 2 查看了匿名写信人. */
    kind: smallint('kind').notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (t) => [index('heart_notices_user_idx').on(t.userId, t.seenAt)],
);

/**
 * 操作日志 (server/modules/audit): who did what to which record, written in the same transaction as
 * the change. The operator's name and role are copied (a removed teacher's entries keep them), so
 * `user_id` has no foreign key. Tenant, school and partner are the operator's and decide who reads
 * the entry. Pruned after a year (AUDIT_LIMITS.retentionDays).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id),
    schoolId: integer('school_id').references(() => schools.id),
    partnerId: integer('partner_id').references(() => partners.id),
    userId: integer('user_id'),
    userName: text('user_name').notNull(),
    role: text('role').notNull(),
    action: text('action').notNull(),
    kind: text('kind').notNull(),
    recordId: text('record_id'),
    summary: text('summary').notNull(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_created_idx').on(t.createdAt),
    index('audit_logs_school_idx').on(t.schoolId, t.createdAt),
    index('audit_logs_partner_idx').on(t.partnerId, t.createdAt),
  ],
);

/** A school's terms (学期) with their dates; the current one is schools.current_term. */
export const schoolTerms = pgTable(
  'school_terms',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    /** SPEC term value: year + '01' (上学期) | '02' (下学期). */
    term: text('term').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
  },
  (t) => [uniqueIndex('school_terms_term_uq').on(t.schoolId, t.term)],
);

/** A student's state changes (转入, 转出, 休学, 复学, 毕业) with their day and reason: the history. */
export const studentStatusChanges = pgTable(
  'student_status_changes',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    /** StatusChangeKind (src/domain/schoolYear.ts). */
    kind: smallint('kind').notNull(),
    onDate: date('on_date').notNull(),
    reason: text('reason'),
    /** The class the student was in when it happened (no reference: the class may be renamed or removed later). */
    className: text('class_name'),
    /** The 升年级 that wrote it (its undo removes it). */
    promotionId: integer('promotion_id'),
    recordedBy: integer('recorded_by').references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('student_status_changes_student_idx').on(t.studentId, t.onDate)],
);

/**
 * One 升年级 (the end-of-year promotion) with everything it changed, so that its undo restores
 * exactly that within the undo period.
 */
export const promotions = pgTable(
  'promotions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    /** The graduation year of the top grade. */
    year: integer('year').notNull(),
    /** PromotionChanges (server/modules/vesta/promotion.ts): grades and classes before, graduates, the new grade. */
    changes: jsonb('changes').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('promotions_school_idx').on(t.schoolId, t.createdAt)],
);

/**
 * 家长查看链接 (server/modules/family): a signed, expiring link to one student's read-only page,
 * issued by a teacher (one course of the student's class) or a school admin (one course or, for a
 * guardian, all of the child's courses: course_id NULL). Only a SHA-256 of the token is kept; the
 * token is shown once when issued. Never another student: the link names the student itself.
 */
export const familyLinks = pgTable(
  'family_links',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    /** The one course the page covers; null: all the child's courses. */
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'cascade' }),
    /** Who the link is for, as the issuer wrote it (e.g. 妈妈), for the list. */
    label: text('label').notNull().default(''),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('family_links_token_uq').on(t.tokenHash), index('family_links_student_idx').on(t.tenantId, t.studentId)],
);

/** Every opening of a family page: which link, when, from which address (PIPL: views are logged). */
export const familyLinkViews = pgTable(
  'family_link_views',
  {
    id: serial('id').primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => familyLinks.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('family_link_views_link_idx').on(t.linkId, t.viewedAt)],
);

/**
 * 复核申请: a family asks, from the page, for one question of one piece of work (homework 0/1 or
 * exam 2, as in answer_records) to be looked at again; the teacher answers. One open request per
 * student and question of a work (the partial unique index).
 */
export const regradeRequests = pgTable(
  'regrade_requests',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull().references(() => tenants.id),
    schoolId: integer('school_id').notNull().references(() => schools.id),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    linkId: integer('link_id').references(() => familyLinks.id, { onDelete: 'set null' }),
    sourceType: smallint('source_type').notNull(),
    sourceId: integer('source_id').notNull(),
    questionId: integer('question_id').notNull(),
    reason: text('reason').notNull(),
    /** 0 待答复, 1 已答复. */
    status: smallint('status').notNull().default(0),
    answer: text('answer'),
    answeredBy: integer('answered_by').references(() => users.id, { onDelete: 'set null' }),
    answeredByName: text('answered_by_name'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('regrade_requests_open_uq').on(t.tenantId, t.studentId, t.sourceType, t.sourceId, t.questionId).where(sql`status = 0`),
    index('regrade_requests_work_idx').on(t.tenantId, t.sourceType, t.sourceId, t.status),
    index('regrade_requests_student_idx').on(t.tenantId, t.studentId, t.createdAt),
  ],
);

/**
 * A partner's withdrawal to its bank account (WD…): 待审核 (the amount frozen) → 已打款 with the
 * platform's transfer reference, or 已驳回 with a reason (the amount unfrozen).
 */
export const partnerWithdrawals = pgTable(
  'partner_withdrawals',
  {
    id: serial('id').primaryKey(),
    withdrawalNo: text('withdrawal_no').notNull(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    amountFen: integer('amount_fen').notNull(),
    bankName: text('bank_name').notNull(),
    accountName: text('account_name').notNull(),
    accountNo: text('account_no').notNull(),
    /** WithdrawalStatus (src/domain/balance.ts). */
    status: smallint('status').notNull().default(1),
    transferRef: text('transfer_ref'),
    rejectReason: text('reject_reason'),
    requestedBy: integer('requested_by').references(() => users.id),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('partner_withdrawals_no_uq').on(t.withdrawalNo), index('partner_withdrawals_partner_idx').on(t.partnerId, t.createdAt), index('partner_withdrawals_status_idx').on(t.status, t.createdAt)],
);

/**
 * The balance ledger: every movement of a partner's balance besides recharges and settled
 * statements (which are their own records). `amountFen` changes the balance, `frozenFen` the frozen
 * part of it; available = balance − frozen. Written in the transaction that makes the movement.
 */
export const balanceEntries = pgTable(
  'balance_entries',
  {
    id: serial('id').primaryKey(),
    partnerId: integer('partner_id').notNull().references(() => partners.id),
    /** BalanceEntryKind (src/domain/balance.ts). */
    kind: smallint('kind').notNull(),
    amountFen: integer('amount_fen').notNull().default(0),
    frozenFen: integer('frozen_fen').notNull().default(0),
    orderId: integer('order_id').references(() => partnerOrders.id),
    withdrawalId: integer('withdrawal_id').references(() => partnerWithdrawals.id),
    createdAt: createdAt(),
  },
  (t) => [index('balance_entries_partner_idx').on(t.partnerId, t.createdAt)],
);

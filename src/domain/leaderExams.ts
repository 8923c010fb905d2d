// The leaders' exam report (考试分析, docs/api-content.md "Exams for leaders"), declared once for
// the server's reply schemas, the data provider, the screen and the tests. No record here carries
// a student's score: per student only a rank or a band, as the school's 成绩公开范围 allows.
import { Type, type Static } from 'typebox';
import { Nullable } from './envelope';

const BandFigure = Type.Object({ count: Type.Integer(), rate: Type.Number() });

export const LeaderExamSummarySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  examDate: Type.String(),
  term: Type.String(),
  fullMarks: Type.Number(),
  gradeId: Type.Integer(),
  gradeName: Type.String(),
  courseId: Type.Integer(),
  courseName: Type.String(),
  questionCount: Type.Integer(),
  /** Students of the classes in the caller's scope who sat it. */
  participants: Type.Integer(),
  /** null below 5 participants (it would be someone's score). */
  average: Nullable(Type.Number()),
});
export type LeaderExamSummary = Static<typeof LeaderExamSummarySchema>;

/** A student as a leader may see them: a rank (名次) or a band (等级), never both, never a score. */
export const DisclosedStudentSchema = Type.Object({
  studentId: Type.Integer(),
  name: Type.String(),
  className: Type.String(),
  rank: Type.Optional(Type.Integer()),
  band: Type.Optional(Type.String()),
});
export type DisclosedStudent = Static<typeof DisclosedStudentSchema>;

export const LeaderClassFiguresSchema = Type.Object({
  classId: Type.Integer(),
  className: Type.String(),
  participants: Type.Integer(),
  average: Nullable(Type.Number()),
  stdDev: Nullable(Type.Number()),
  excellentRate: Type.Number(),
  passRate: Type.Number(),
});
export type LeaderClassFigures = Static<typeof LeaderClassFiguresSchema>;

export const LeaderQuestionSchema = Type.Object({
  no: Type.String(),
  questionId: Type.Integer(),
  type: Type.Integer(),
  points: Type.Number(),
  knowledgePoints: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  answered: Type.Integer(),
  correct: Type.Integer(),
  average: Nullable(Type.Number()),
  scoreRate: Nullable(Type.Number()),
  difficulty: Nullable(Type.Number()),
  discrimination: Nullable(Type.Number()),
  optionRates: Nullable(Type.Array(Type.Object({ key: Type.String(), count: Type.Integer(), rate: Type.Number(), correct: Type.Boolean() }))),
});

export const LeaderExamReportSchema = Type.Object({
  exam: Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    examDate: Type.String(),
    term: Type.String(),
    fullMarks: Type.Number(),
    gradeId: Type.Integer(),
    gradeName: Type.String(),
    courseId: Type.Integer(),
    courseName: Type.String(),
  }),
  scope: Type.Object({ classIds: Type.Array(Type.Integer()), classNames: Type.Array(Type.String()) }),
  participants: Type.Integer(),
  absent: Type.Integer(),
  average: Nullable(Type.Number()),
  stdDev: Nullable(Type.Number()),
  bands: Type.Object({ excellent: BandFigure, good: BandFigure, pass: BandFigure, fail: BandFigure }),
  distribution: Type.Array(Type.Object({ from: Type.Number(), to: Type.Number(), count: Type.Integer() })),
  reliability: Nullable(Type.Number()),
  questions: Type.Array(LeaderQuestionSchema),
  classes: Type.Array(LeaderClassFiguresSchema),
  /** The school's 成绩公开范围: 0 nothing per student, 1 bands, 2 ranks (ScoreDisclosure). */
  disclosure: Type.Integer(),
  /** Ranks in rank order, bands in class and student-number order; empty when nothing is disclosed. */
  students: Type.Array(DisclosedStudentSchema),
});
export type LeaderExamReport = Static<typeof LeaderExamReportSchema>;

const ExamRef = Type.Object({ id: Type.Integer(), title: Type.String(), examDate: Type.String() });

/** 临界生: students just under the 优秀 or 及格 line (within `margin` points), by line. */
export const CriticalLineSchema = Type.Object({
  band: Type.Union([Type.Literal('excellent'), Type.Literal('pass')]),
  label: Type.String(),
  /** The line in points (90 % or 60 % of full marks). */
  line: Type.Number(),
  count: Type.Integer(),
  /** Names only when the school discloses something per student; else empty (the count stays). */
  students: Type.Array(Type.Object({ studentId: Type.Integer(), name: Type.String(), className: Type.String() })),
});

export const LeaderExamAnalysisSchema = Type.Object({
  disclosure: Type.Integer(),
  critical: Type.Object({ margin: Type.Number(), lines: Type.Array(CriticalLineSchema) }),
  /** 进退步 against the previous exam of the same grade and course (null: this is the first). */
  progress: Type.Object({
    previous: Nullable(ExamRef),
    /** Score rates (average / full marks), so exams of different full marks compare. */
    classes: Type.Array(
      Type.Object({ classId: Type.Integer(), className: Type.String(), rate: Nullable(Type.Number()), previousRate: Nullable(Type.Number()), change: Nullable(Type.Number()) }),
    ),
    /** Students who sat both: how many rose or fell by 5 points of score rate or more. */
    both: Type.Integer(),
    improved: Type.Integer(),
    declined: Type.Integer(),
    /** Per student, as disclosed: rank then and now, or band then and now; empty when nothing is disclosed. */
    students: Type.Array(
      Type.Object({
        studentId: Type.Integer(),
        name: Type.String(),
        className: Type.String(),
        rank: Type.Optional(Type.Integer()),
        previousRank: Type.Optional(Type.Integer()),
        band: Type.Optional(Type.String()),
        previousBand: Type.Optional(Type.String()),
      }),
    ),
  }),
  /** 学科均衡: the latest exam of each course of this grade and term, each class's score rate against the grade's. */
  balance: Type.Object({
    exams: Type.Array(Type.Object({ id: Type.Integer(), title: Type.String(), examDate: Type.String(), courseId: Type.Integer(), courseName: Type.String() })),
    classes: Type.Array(
      Type.Object({
        classId: Type.Integer(),
        className: Type.String(),
        /** Per exam of `exams`, in order: the class's score rate and its ratio to the grade's (1 = the grade's level). */
        subjects: Type.Array(Type.Object({ examId: Type.Integer(), rate: Nullable(Type.Number()), relative: Nullable(Type.Number()) })),
        /** Highest minus lowest relative rate: 0 is even; over 0.1 one subject lags. */
        spread: Nullable(Type.Number()),
        weakest: Nullable(Type.String()),
      }),
    ),
  }),
  knowledgePoints: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), questions: Type.Array(Type.String()), points: Type.Number(), average: Type.Number(), scoreRate: Nullable(Type.Number()) }),
  ),
});
export type LeaderExamAnalysis = Static<typeof LeaderExamAnalysisSchema>;

/** One student of a leader's exam: what is disclosed now and over the course's exams, and the scans. */
export const LeaderExamStudentSchema = Type.Object({
  student: Type.Object({ studentId: Type.Integer(), name: Type.String(), studentNo: Type.String(), classId: Type.Integer(), className: Type.String() }),
  disclosure: Type.Integer(),
  sat: Type.Boolean(),
  rank: Type.Optional(Type.Integer()),
  ranked: Type.Optional(Type.Integer()),
  band: Type.Optional(Type.String()),
  /** The student's exams of this course and grade in the caller's scope, oldest first. */
  history: Type.Array(
    Type.Object({ examId: Type.Integer(), title: Type.String(), examDate: Type.String(), rank: Type.Optional(Type.Integer()), ranked: Type.Optional(Type.Integer()), band: Type.Optional(Type.String()) }),
  ),
  /** 原卷: the scanned pages of the answer sheet, when the exam was graded from scans (AI批改) and the school discloses results. */
  sheets: Type.Array(Type.Object({ resultId: Type.Integer(), taskTitle: Type.String(), pages: Type.Array(Type.Object({ page: Type.Integer(), fileId: Type.Integer() })) })),
  /** Why no sheet is offered, in words for the screen; null when there is one. */
  sheetNote: Nullable(Type.String()),
});
export type LeaderExamStudent = Static<typeof LeaderExamStudentSchema>;

/** 阅卷进度 of an exam marked online: per AI批改 task (a class), per hand-marked question, per marker. */
export const ExamMarkingProgressSchema = Type.Object({
  tasks: Type.Array(
    Type.Object({
      taskId: Type.Integer(),
      title: Type.String(),
      classId: Type.Integer(),
      className: Type.String(),
      owner: Type.String(),
      papers: Type.Integer(),
      questions: Type.Array(
        Type.Object({
          no: Type.Integer(),
          kind: Type.Union([Type.Literal('short'), Type.Literal('essay')]),
          double: Type.Boolean(),
          marked: Type.Integer(),
          total: Type.Integer(),
          arbitration: Type.Integer(),
          /** Each marker's own queue; the task's owner when the question was given to no one. */
          markers: Type.Array(Type.Object({ teacherId: Type.Integer(), name: Type.String(), marked: Type.Integer(), total: Type.Integer() })),
        }),
      ),
    }),
  ),
});
export type ExamMarkingProgress = Static<typeof ExamMarkingProgressSchema>;

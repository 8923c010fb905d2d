// Enumerations of SPEC §3 and constants of §9, with the Chinese labels users see.
import type { Option } from './semester';

export const WRONG_QUESTION_TYPES: Option<number>[] = [
  { label: '选择题', value: 1 },
  { label: '填空题', value: 2 },
  { label: '解答题', value: 3 },
  { label: '其他', value: 4 },
];
export const RECOGNITION_QUESTION_TYPES: Option<number>[] = [
  { label: '填空题', value: 1 },
  { label: '单选题', value: 2 },
  { label: '多选题', value: 3 },
  { label: '简答题', value: 4 },
  { label: '综合题', value: 5 },
  { label: '未知', value: 0 },
];
export const WRONG_QUESTION_SOURCES: Option<number>[] = [
  { label: '自定义作业', value: 0 },
  { label: '作业本', value: 1 },
  { label: '考试', value: 2 },
];
/** SPEC §3: the mistake-type filter offers only homework. */
export const MISTAKE_TYPES: Option<number>[] = [{ label: '作业', value: 1 }];

export const TIME_RANGES: Option<number>[] = [
  { label: '近一周', value: 1 },
  { label: '近一月', value: 2 },
  { label: '本学期', value: 0 },
];
/** SPEC §4: the selection store's dateType falls back to the term constant. */
export const TERM_DATE_TYPE = 0;

export const HOMEWORK_DATE_RANGES: Option<string>[] = [
  { label: '今天', value: 'today' },
  { label: '一周内', value: 'week' },
  { label: '全部', value: 'all' },
];
export const DATE_FILTERS: Option<string>[] = [
  { label: '今天', value: 'today' },
  { label: '近一周', value: 'week' },
  { label: '近一月', value: 'month' },
  { label: '全部', value: 'all' },
];

export const ERROR_RATE_BANDS: Option<string>[] = [
  { label: '全部', value: 'all' },
  { label: '40%以上', value: 'gt40' },
  { label: '30%-40%', value: '30to40' },
  { label: '10%-30%', value: '10to30' },
  { label: '10%以下', value: 'lt10' },
];
export const SCORE_BANDS: Option<string>[] = [
  { label: '优秀（90%以上）', value: 'excellent' },
  { label: '良好（70%-90%）', value: 'good' },
  { label: '及格（60%-70%）', value: 'pass' },
  { label: '不及格（60%以下）', value: 'fail' },
];

/** SPEC §3 student status (0 在读, 1 已毕业) and the school year's 转出, 休学: src/domain/schoolYear.ts. */
export { STUDENT_STATUSES } from './schoolYear';
export const BINDING_STATUSES: Option<number>[] = [
  { label: '未绑定', value: 0 },
  { label: '已绑定', value: 1 },
];
export const RECOGNITION_STATUSES: Option<number>[] = [
  { label: '新建', value: 0 },
  { label: '上传中', value: 1 },
  { label: '识别中', value: 2 },
  { label: '已识别', value: 3 },
  { label: '识别失败', value: 4 },
  { label: '已删除', value: 5 },
];
export const REFUND_STATUSES: Option<number>[] = [
  { label: '未退款', value: 0 },
  { label: '退款中', value: 1 },
  { label: '已退款', value: 2 },
];
/** `short` names the type where the context already says 批改 (the AI-correction tabs). */
export const GRADING_TASK_TYPES = [
  { label: '作业批改', short: '作业', value: 1, key: 'examProcess' },
  { label: '作文批改', short: '作文', value: 2, key: 'composition' },
  { label: '答题卡批改', short: '答题卡', value: 3, key: 'answerSheet' },
] as const;
/** Grading task statuses by name, as the server sends them. */
export const GradingStatus = { pendingSubmission: 1, grading: 3, graded: 4, failed: 7 } as const;
export const GRADING_STATUSES: Option<number>[] = [
  { label: '待提交', value: 1 },
  { label: '批改中', value: 3 },
  { label: '已批改', value: 4 },
  { label: '批改失败', value: 7 },
];
export const DEPLOYMENT_FILTERS: Option<number>[] = [
  { label: '全部', value: 0 },
  { label: '已部署', value: 1 },
  { label: '未部署', value: 2 },
];
export const SCOPES: Option<number>[] = [
  { label: '本人班级', value: 2 },
  { label: '全校', value: 1 },
];

/** SPEC §9 numeric constants. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const ERROR_TOAST_MS = 3_000;
export const SIDEBAR_WIDTH = 90;
export const BADGE_CAP = 99;
export const PROGRESS_BAR = { minimum: 0.3, speed: 500, trickleSpeed: 200 } as const;
export const DROPDOWN_DELAY_MS = 150;
export const LOADING_CLOSE_MS = 400;

// The reply envelope of SPEC §7: {code, msg, success, data}, with HTTP status = code (DESIGN.md).
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Envelope } from '../../src/domain/envelope';

export type { Envelope };

export function ok<T>(data: T, msg = '操作成功'): Envelope<T> {
  return { code: 200, msg, success: true, data };
}

/** A failure the user should read: status code and a Chinese message. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    message: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new ApiError(400, msg);
export const unauthorized = (msg = '请先登录') => new ApiError(401, msg);
export const forbidden = (msg = '无权访问') => new ApiError(403, msg);
export const notFound = (msg = '数据不存在') => new ApiError(404, msg);
export const conflict = (msg: string) => new ApiError(409, msg);

/**
 * Chinese names of request fields, for validation messages. Every property of every route schema
 * (query, body, multipart fields) has one: tests/api/fuzz.test.ts fails on a field without.
 */
export const FIELD_LABELS: Record<string, string> = {
  username: '用户名',
  password: '密码',
  leaderType: '角色类型',
  classId: '班级',
  gradeId: '年级',
  schoolId: '学校',
  teacherId: '教师',
  dateType: '时间范围',
  courseId: '课程',
  term: '学期',
  // Learning-situation analysis (docs/api-analysis.md)
  figure: '图表',
  // School administration (docs/api-school.md)
  studentId: '学生',
  studentIds: '学生',
  resourceId: '资源',
  name: '姓名',
  className: '班级名称',
  studentNo: '学号',
  gender: '性别',
  parentPhone: '家长手机号',
  phone: '手机号',
  job: '职务',
  year: '毕业年份',
  current: '页码',
  size: '每页条数',
  keyword: '关键字',
  status: '状态',
  bindingStatus: '绑定状态',
  sort: '排序字段',
  order: '排序方式',
  title: '标题',
  type: '类型',
  subjectId: '学科',
  bindings: '任教班级',
  includeGraduated: '是否包含已毕业',
  mine: '只看我上传的',
  // AI correction (docs/api-correct.md)
  taskId: '批改任务',
  fileId: '文件',
  resultId: '批改结果',
  comment: '评语',
  sheetId: '答题卡',
  paper: '纸张大小',
  identity: '学生识别方式',
  digits: '学号位数',
  sections: '题目分区',
  kind: '分区类型',
  items: '题目',
  no: '题号',
  options: '选项个数',
  blanks: '填空',
  heightMm: '作答区高度',
  cells: '作文格数',
  columns: '每行格数',
  prompt: '作文题目',
  minChars: '最少字数',
  answerKey: '答案',
  multipleRule: '多选题给分规则',
  missing: '漏选得分比例',
  wrong: '错选得分比例',
  minOcrConfidence: '识别可信度下限',
  answer: '答案',
  points: '分值',
  essay: '作文',
  questions: '题目',
  text: '内容',
  essayBrief: '作文要求',
  fullMarks: '满分',
  scoreDisclosure: '成绩公开范围',
  score: '得分',
  // Teaching content (docs/api-content.md)
  classIds: '班级',
  bookId: '练习册',
  pageId: '页面',
  pageIds: '页面',
  sectionIds: '章节',
  questionId: '题目',
  questionIds: '题目',
  cause: '错因',
  mastery: '掌握程度',
  scanIds: '原题图片',
  mode: '组卷方式',
  variants: '举一反三题数',
  dueAt: '截止时间',
  examId: '考试',
  paperId: '试卷',
  homeworkId: '作业',
  knowledgePointId: '知识点',
  knowledgePointIds: '知识点',
  children: '小题',
  difficulty: '难度',
  stem: '题干',
  analysis: '解析',
  key: '选项字母',
  question: '题目',
  durationMinutes: '考试时长',
  gradeLevel: '年级',
  isCorrect: '是否正确',
  sourceType: '来源类型',
  sourceId: '作业或考试',
  position: '位置',
  answerArea: '作答区域',
  dateRange: '作业日期',
  stage: '学段',
  source: '来源',
  x: '横向位置',
  y: '纵向位置',
  width: '宽度',
  height: '高度',
  // Class wrong-answer book (docs/api-wrongbook-class.md)
  band: '错误率区间',
  mistakeType: '错题类型',
  // Saved list filters
  resource: '列表',
  filter: '筛选条件',
  label: '名称',
  fields: '导出列',
  id: '编号',
  // Device API (docs/api-devices.md)
  paperLeft: '剩余纸张',
  jammed: '卡纸状态',
  firmware: '固件版本',
  userKind: '用户类型',
  userId: '用户',
  signIns: '登录记录',
  signedInAt: '登录时间',
  jobs: '打印记录',
  clientJobId: '打印任务编号',
  app: '应用',
  pages: '页数',
  printedAt: '打印时间',
  // Partner device management (docs/api-devices.md)
  deviceId: '设备',
  deviceIds: '设备',
  deployment: '部署状态',
  online: '在线状态',
  model: '型号',
  partnerId: '合作伙伴',
  days: '天数',
  // Partner orders and settlement (docs/api-partner-orders.md, docs/api-partner-settlement.md)
  orderNo: '订单号',
  packId: '纸张规格',
  quantity: '数量',
  remark: '备注',
  payStatus: '支付状态',
  refundStatus: '退款状态',
  dateFrom: '开始日期',
  dateTo: '结束日期',
  reason: '原因',
  amountFen: '金额',
  rechargeNo: '充值单号',
  statementNo: '结算单号',
  period: '结算月份',
  side: '结算方向',
  // Partner data boards (docs/api-partner-boards.md)
  queryMode: '查询方式',
  month: '月份',
  startDate: '开始日期',
  endDate: '结束日期',
  statistics: '统计方式',
  metric: '统计指标',
  // 学生心声 (docs/api-heart-voices.md)
  ids: '通知',
  content: '心声内容',
  writtenAt: '写下时间',
  mood: '心情',
  anonymous: '是否匿名',
  category: '分类',
  level: '风险等级',
  note: '记录内容',
  guardianName: '监护人姓名',
  consentedOn: '同意日期',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Names a route's fields differently from FIELD_LABELS where the same key means another thing there. */
    fieldLabels?: Record<string, string>;
  }
}

/** The Chinese name of a request field, or undefined for a name no schema declares. */
export const fieldLabel = (name: string): string | undefined => (Object.hasOwn(FIELD_LABELS, name) ? FIELD_LABELS[name] : undefined);

interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
}

/**
 * The field an error is about, named from the schema (never from the request, whose keys may be
 * anything): the missing property, else the last declared property on the schema path.
 */
function fieldOf(err: AjvError, labels: Record<string, string>): string {
  const label = (name: string) => (Object.hasOwn(labels, name) ? labels[name] : fieldLabel(name)) ?? '参数';
  const missing = err.params.missingProperty as string | undefined;
  if (missing) return label(missing);
  const segments = (err.schemaPath ?? '').split('/');
  for (let i = segments.length - 2; i >= 0; i--) {
    if (segments[i] === 'properties') return label(decodeURIComponent(segments[i + 1]));
  }
  return '参数';
}

function describe(err: AjvError, labels: Record<string, string>): string {
  const field = fieldOf(err, labels);
  switch (err.keyword) {
    case 'required':
      return `${field}不能为空`;
    case 'minLength':
      return err.params.limit === 1 ? `${field}不能为空` : `${field}长度不能少于${err.params.limit}个字符`;
    case 'maxLength':
      return `${field}长度不能超过${err.params.limit}个字符`;
    case 'minItems':
      return err.params.limit === 1 ? `${field}不能为空` : `${field}不能少于${err.params.limit}项`;
    case 'maxItems':
      return `${field}不能超过${err.params.limit}项`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'enum':
    case 'anyOf':
    case 'const':
      return `${field}取值不正确`;
    case 'additionalProperties':
      return '请求包含不支持的参数';
    default:
      return `${field}格式不正确`;
  }
}

/**
 * The message for a failed validation. Of the errors ajv reports (one per branch of a union), the
 * one deepest in the input says best what is wrong; ties go to the first.
 */
export function validationMessage(errors: readonly unknown[], labels: Record<string, string> = {}): string {
  const list = errors as AjvError[];
  if (!list.length) return '请求参数格式不正确';
  const depth = (e: AjvError) => e.instancePath.split('/').length + (e.keyword === 'required' ? 1 : 0);
  const best = list.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return describe(best, labels);
}

function send(reply: FastifyReply, code: number, msg: string) {
  return reply.status(code).send({ code, msg, success: false, data: null });
}

/** One error handler for the whole app: envelopes every failure and never leaks a stack trace. */
export function registerEnvelope(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      reply.headers(error.headers);
      return send(reply, error.code, error.message);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return send(reply, 400, validationMessage(fe.validation, request.routeOptions.config?.fieldLabels));
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(reply, 400, '请求内容不是有效的 JSON');
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, '上传内容过大');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, '不支持的请求类型');
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      request.log.info({ err: error }, 'request refused');
      return send(reply, fe.statusCode, '请求有误');
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, '服务异常');
  });
  app.setNotFoundHandler((request, reply) => send(reply, 404, '接口不存在'));
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', '请求地址或请求头过长'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', '请求超时，请重试'],
};

/**
 * Requests Node refuses before Fastify sees them (an address or headers beyond maxHeaderSize, a
 * malformed request line, a timeout) are answered with the envelope too, not Node's English text.
 */
export function sendClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, status, msg] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', '请求格式不正确'];
  this.log.info({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ code, msg, success: false, data: null });
    socket.write(
      `HTTP/1.1 ${code} ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * Errors the router raises before any route runs (a path parameter past maxParamLength, a URL
 * that does not decode): Fastify would answer them in English JSON of its own.
 */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 414, '请求地址过长');
  return send(reply, 400, '请求地址不正确');
}

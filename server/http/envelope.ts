// The reply envelope of SPEC §7: {code, msg, success, data}, with HTTP status = code (DESIGN.md).
import type { FastifyError, FastifyInstance } from 'fastify';

export interface Envelope<T> {
  code: number;
  msg: string;
  success: boolean;
  data: T;
}

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

/** Chinese names of request fields, for validation messages. */
const FIELD_LABELS: Record<string, string> = {
  username: '用户名',
  password: '密码',
  leaderType: '角色类型',
  classId: '班级',
  gradeId: '年级',
  schoolId: '学校',
  teacherId: '教师',
  dateType: '时间范围',
  courseId: '课程',
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
};

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

function describe(err: AjvError): string {
  const missing = err.params.missingProperty as string | undefined;
  // Array items (`/studentIds/3`) are named by their array.
  const path = missing ?? err.instancePath.split('/').filter((s) => s && !/^\d+$/.test(s)).pop() ?? '';
  const field = FIELD_LABELS[path] ?? path ?? '参数';
  switch (err.keyword) {
    case 'required':
      return `${field}不能为空`;
    case 'minLength':
      return err.params.limit === 1 ? `${field}不能为空` : `${field}长度不能少于${err.params.limit}个字符`;
    case 'maxLength':
      return `${field}长度不能超过${err.params.limit}个字符`;
    case 'minimum':
    case 'maximum':
    case 'enum':
    case 'anyOf':
    case 'const':
      return `${field}取值不正确`;
    case 'type':
      return `${field}格式不正确`;
    case 'additionalProperties':
      return `不支持的参数${String(err.params.additionalProperty ?? '')}`;
    default:
      return `${field}格式不正确`;
  }
}

function send(reply: import('fastify').FastifyReply, code: number, msg: string) {
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
      return send(reply, 400, describe(fe.validation[0] as unknown as AjvError));
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(reply, 400, '请求内容不是有效的 JSON');
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, '上传内容过大');
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, '不支持的请求类型');
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return send(reply, fe.statusCode, '请求有误');
    }
    request.log.error(error);
    return send(reply, 500, '服务异常');
  });
  app.setNotFoundHandler((request, reply) => send(reply, 404, '接口不存在'));
}

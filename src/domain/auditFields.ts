// 操作日志's vocabulary as plain data (no TypeBox, so the screen's config stays small): what an
// entry says was done (action), to which kind of record (kind), the Chinese names of its fields,
// and its limits. The server writes only these values; src/domain/audit.ts builds the reply schema.
import type { Option } from './semester';

export const AUDIT_ACTIONS = {
  create: '新增',
  update: '修改',
  delete: '删除',
  import: '导入',
  assign: '分配',
  unassign: '移除',
  graduate: '毕业',
  resetPassword: '重置密码',
  reveal: '查看身份',
  cancel: '取消',
  refund: '申请退款',
  confirm: '确认',
  reject: '驳回',
  settle: '标记结算',
  reissue: '重新提交',
  register: '登记',
  deploy: '部署',
  undeploy: '解绑',
  rotateSecret: '更换密钥',
  appoint: '任命',
  dismiss: '免去',
  disable: '停用',
  leave: '离职',
  enable: '恢复在职',
  issuePasswords: '生成初始密码',
  promote: '升年级',
  undo: '撤销',
  withdraw: '撤回',
  issue: '发放',
  revoke: '撤销',
  pay: '余额支付',
  approve: '审核通过',
  ship: '发货',
  receive: '确认收货',
  return: '申请退货',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_KINDS = {
  student: '学生',
  teacher: '教师',
  class: '班级',
  grade: '年级',
  schoolYear: '学年',
  role: '角色/任教',
  room: '教室',
  setting: '学校设置',
  consent: '监护人同意',
  heartVoice: '学生心声',
  order: '订单',
  recharge: '充值单',
  statement: '结算单',
  terminal: '终端',
  familyLink: '家长查看链接',
  regrade: '复核申请',
  jointExam: '联考',
  withdrawal: '提现申请',
  address: '收货地址',
  partner: '合作商',
  partnerPrice: '合作商价格',
} as const;
export type AuditKind = keyof typeof AUDIT_KINDS;

const options = <K extends string>(labels: Record<K, string>): readonly Option<string>[] =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));
export const AUDIT_ACTION_OPTIONS = options(AUDIT_ACTIONS);
export const AUDIT_KIND_OPTIONS = options(AUDIT_KINDS);

export const AUDIT_LABELS = {
  createdAt: '时间',
  userName: '操作人',
  roleName: '角色',
  orgName: '所属单位',
  action: '操作',
  kind: '对象类型',
  recordId: '对象编号',
  summary: '内容',
  ip: 'IP 地址',
} as const;

export const AUDIT_LIMITS = {
  /** Longest summary kept; a longer one is cut with an ellipsis. */
  summary: 200,
  recordId: 64,
  /** Longest operator-name search. */
  operator: 50,
  /** Most rows one export writes: beyond it the user narrows the filters. */
  exportRows: 20_000,
  /** Entries are kept this many days, then pruned (server/modules/audit/retention.ts). */
  retentionDays: 365,
} as const;

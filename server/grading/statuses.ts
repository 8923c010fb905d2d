// Status codes shared with the later job queue and API (SPEC "enums"). Numbers are part of the
// wire contract with existing clients, so they are spelled out rather than derived.

export const TaskType = { homework: 1, essay: 2, answerSheet: 3 } as const;
export type TaskType = (typeof TaskType)[keyof typeof TaskType];

export const GradingStatus = { pendingSubmission: 1, grading: 3, graded: 4, failed: 7 } as const;
export type GradingStatus = (typeof GradingStatus)[keyof typeof GradingStatus];

export const RecognitionStatus = { new: 0, uploading: 1, recognising: 2, recognised: 3, failed: 4, deleted: 5 } as const;
export type RecognitionStatus = (typeof RecognitionStatus)[keyof typeof RecognitionStatus];

export const taskTypeLabel: Record<TaskType, string> = { 1: '作业批改', 2: '作文批改', 3: '答题卡批改' };
export const gradingStatusLabel: Record<GradingStatus, string> = { 1: '待提交', 3: '批改中', 4: '已批改', 7: '批改失败' };
export const recognitionStatusLabel: Record<RecognitionStatus, string> = {
  0: '新建',
  1: '上传中',
  2: '识别中',
  3: '已识别',
  4: '识别失败',
  5: '已删除',
};

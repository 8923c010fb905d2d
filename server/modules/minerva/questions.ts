// One shape for a question in every reply, and the rules a written question must follow.
import { sql } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { OBJECTIVE_TYPES, QuestionType } from '../../../src/domain/content';
import type { QuestionView, SubQuestionView } from '../../../src/domain/questionBank';
import type { Db } from '../../db';
import { rows } from '../../db/query';
import { badRequest } from '../../http/envelope';
import { Id } from '../../http/schemas';

export type { QuestionView, SubQuestionView };

/** Columns of a `questions` row aliased `q`, with its knowledge points named. */
export const QUESTION_COLUMNS = sql`q.id, q.type, q.stem, q.options, q.answer, q.analysis, q.difficulty, q.points,
  q.subject_id AS "subjectId", q.grade_level AS "gradeLevel", q.source,
  (SELECT coalesce(json_agg(json_build_object('id', k.id, 'name', k.name) ORDER BY k.id), '[]'::json)
     FROM knowledge_points k WHERE k.id = ANY(q.knowledge_point_ids)) AS "knowledgePoints",
  (SELECT coalesce(json_agg(json_build_object('id', c.id, 'type', c.type, 'stem', c.stem, 'options', c.options, 'answer', c.answer,
                                              'analysis', c.analysis, 'difficulty', c.difficulty, 'points', c.points) ORDER BY c.sort_order, c.id), '[]'::json)
     FROM questions c WHERE c.parent_id = q.id) AS children`;

/** A sub-question of a 综合: any type but 综合 and 作文; it shares its parent's knowledge points. */
export const SubQuestionBody = Type.Object(
  {
    type: Type.Integer({ minimum: 1, maximum: 5 }),
    stem: Type.String({ minLength: 1, maxLength: 5000 }),
    options: Type.Optional(Type.Array(Type.Object({ key: Type.String({ maxLength: 1, pattern: '^[A-H]$' }), text: Type.String({ minLength: 1, maxLength: 500 }) }), { maxItems: 8 })),
    answer: Type.String({ minLength: 1, maxLength: 2000 }),
    analysis: Type.Optional(Type.String({ maxLength: 5000 })),
    difficulty: Type.Integer({ minimum: 1, maximum: 5 }),
    points: Type.Number({ minimum: 0.5, maximum: 100 }),
  },
  { additionalProperties: false },
);
export type SubQuestionInput = Static<typeof SubQuestionBody>;

export const MAX_SUB_QUESTIONS = 10;

export const QuestionBody = Type.Object(
  {
    type: Type.Integer({ minimum: 1, maximum: 7 }),
    stem: Type.String({ minLength: 1, maxLength: 5000 }),
    options: Type.Optional(Type.Array(Type.Object({ key: Type.String({ maxLength: 1, pattern: '^[A-H]$' }), text: Type.String({ minLength: 1, maxLength: 500 }) }), { maxItems: 8 })),
    answer: Type.String({ minLength: 1, maxLength: 2000 }),
    analysis: Type.Optional(Type.String({ maxLength: 5000 })),
    difficulty: Type.Integer({ minimum: 1, maximum: 5 }),
    points: Type.Number({ minimum: 0.5, maximum: 100 }),
    knowledgePointIds: Type.Array(Id, { minItems: 1, maxItems: 10 }),
    source: Type.Optional(Type.String({ maxLength: 200 })),
    /** Only for 综合: its sub-questions, in order. */
    children: Type.Optional(Type.Array(SubQuestionBody, { maxItems: MAX_SUB_QUESTIONS })),
  },
  { additionalProperties: false },
);
export type QuestionInput = Static<typeof QuestionBody>;

/**
 * The formula check (KaTeX, some 12 MB in memory) loads with the first question written, not with
 * the API: loadFormulaCheck() before cleanQuestion.
 */
let formulas: typeof import('../../../src/domain/formula') | undefined;
export async function loadFormulaCheck(): Promise<void> {
  formulas ??= await import('../../../src/domain/formula');
}

/** The stem, options and answer of one question, cleaned; a Chinese 400 when they do not fit its type. */
function cleanBody(input: SubQuestionInput) {
  const stem = input.stem.trim();
  if (!stem) throw badRequest('题干不能为空');
  // A formula that cannot be drawn is refused here, not printed as red LaTeX on every paper.
  for (const [label, text] of [['题干', stem], ['答案', input.answer], ['解析', input.analysis ?? ''], ...(input.options ?? []).map((o) => [`选项${o.key}`, o.text])]) {
    if (!formulas) throw new Error('loadFormulaCheck() must run before a question is cleaned');
    const problem = formulas.formulaProblem(text);
    if (problem) throw badRequest(`${label}：${problem}`);
  }
  const answer = input.answer.trim().toUpperCase();
  let options = input.options ?? null;
  if (OBJECTIVE_TYPES.includes(input.type)) {
    if (input.type === QuestionType.judge && !options?.length) options = [{ key: 'A', text: '对' }, { key: 'B', text: '错' }];
    if (!options || options.length < 2) throw badRequest('选择题至少需要两个选项');
    const keys = options.map((o) => o.key);
    if (new Set(keys).size !== keys.length) throw badRequest('选项字母不能重复');
    const chosen = [...answer];
    if (!chosen.length || chosen.some((k) => !keys.includes(k)) || new Set(chosen).size !== chosen.length) throw badRequest('答案必须是选项中的字母');
    if (input.type !== QuestionType.multiple && chosen.length !== 1) throw badRequest('单选题和判断题只能有一个答案');
    if (input.type === QuestionType.multiple && chosen.length < 2) throw badRequest('多选题至少有两个正确选项');
  } else {
    options = null;
  }
  return {
    type: input.type,
    stem,
    options,
    answer: OBJECTIVE_TYPES.includes(input.type) ? [...answer].sort().join('') : input.answer.trim(),
    analysis: (input.analysis ?? '').trim(),
    difficulty: input.difficulty,
    points: input.points,
  };
}

export type CleanQuestion = ReturnType<typeof cleanBody> & {
  knowledgePointIds: number[];
  source: string | null;
  children: ReturnType<typeof cleanBody>[];
};

/**
 * What the schema cannot say, without the database: choice questions have distinct options and
 * an answer made of their keys; only a 综合 has sub-questions, and then its points are theirs summed.
 */
export function cleanQuestion(input: QuestionInput): CleanQuestion {
  const children = input.children ?? [];
  if (children.length && input.type !== QuestionType.composite) throw badRequest('只有综合题可以包含小题');
  const cleaned = children.map((child, i) => {
    try {
      return cleanBody(child);
    } catch (err) {
      (err as Error).message = `第${i + 1}小题：${(err as Error).message}`;
      throw err;
    }
  });
  const base = cleanBody(input);
  // A 综合 is worth what its parts are worth: rounding to 0.5 keeps sums of half points exact.
  const points = cleaned.length ? Math.round(cleaned.reduce((sum, c) => sum + c.points, 0) * 2) / 2 : base.points;
  return { ...base, points, knowledgePointIds: [...new Set(input.knowledgePointIds)], source: input.source?.trim() || null, children: cleaned };
}

/** The question cleaned, with its knowledge points checked against the subject. */
export async function checkQuestion(db: Db, input: QuestionInput, subjectId: number): Promise<CleanQuestion> {
  await loadFormulaCheck();
  const values = cleanQuestion(input);
  const ids = values.knowledgePointIds;
  const found = await rows<{ id: number }>(db, sql`
    SELECT id FROM knowledge_points WHERE id = ANY(${`{${ids.join(',')}}`}::int[]) AND subject_id = ${subjectId}`);
  if (found.length !== ids.length) throw badRequest('知识点不存在或不属于本学科');
  return values;
}

/**
 * Writes a 综合's sub-questions under `parentId`, replacing those it had. They inherit the
 * parent's bank fields (tenant, subject, grade, knowledge points, source).
 */
export async function writeChildren(tx: Db, parentId: number, children: CleanQuestion['children']) {
  await tx.execute(sql`DELETE FROM questions WHERE parent_id = ${parentId}`);
  if (!children.length) return;
  const values = sql.join(
    children.map((c, i) => sql`(${c.type}::smallint, ${c.stem}::text, ${c.options === null ? null : JSON.stringify(c.options)}::jsonb, ${c.answer}::text,
                               ${c.analysis}::text, ${c.difficulty}::smallint, ${c.points}::real, ${i + 1}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    INSERT INTO questions (tenant_id, subject_id, stage, grade_level, type, stem, options, answer, analysis, difficulty, points,
                           knowledge_point_ids, source, parent_id, sort_order, created_by)
    SELECT p.tenant_id, p.subject_id, p.stage, p.grade_level, v.type, v.stem, v.options, v.answer, v.analysis, v.difficulty, v.points,
           p.knowledge_point_ids, p.source, p.id, v.sort_order, p.created_by
      FROM questions p, (VALUES ${values}) AS v(type, stem, options, answer, analysis, difficulty, points, sort_order)
     WHERE p.id = ${parentId}`);
}

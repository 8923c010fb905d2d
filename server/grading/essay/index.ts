import { llmConfigFromEnv, reviewWithLlm, type LlmConfig, type LlmReview } from './llm.js';
import { scoreEssayRubric, type EssayOptions, type RubricResult } from './rubric.js';

export interface EssayResult {
  rubric: RubricResult;
  /** Present when a model was configured: its review, or why it is missing. */
  llm?: { ok: true; review: LlmReview } | { ok: false; error: string };
  /** The score to show: the rubric's, averaged with the model's when the model answered validly. */
  score: number;
  source: 'rubric' | 'rubric+llm';
}

/** Scores an essay offline, and with the configured model (env LLM_*) when there is one. */
export async function scoreEssay(text: string, opts: EssayOptions = {}, llm: LlmConfig | null = llmConfigFromEnv()): Promise<EssayResult> {
  const rubric = scoreEssayRubric(text, opts);
  // Nothing written: nothing for a model to read.
  if (!llm || rubric.flags.some((f) => f.kind === 'empty')) return { rubric, score: rubric.score, source: 'rubric' };
  const outcome = await reviewWithLlm(text, opts, rubric, llm);
  // A degenerate text (repeated, copied title, off topic) keeps the rubric's near-zero score:
  // a model that is generous with it must not lift it back; its review is still shown.
  if (outcome.ok && rubric.flags.length) return { rubric, llm: { ok: true, review: outcome.review }, score: rubric.score, source: 'rubric' };
  if (!outcome.ok) return { rubric, llm: { ok: false, error: outcome.error }, score: rubric.score, source: 'rubric' };
  return {
    rubric,
    llm: { ok: true, review: outcome.review },
    score: Math.round(((rubric.score + outcome.review.score) / 2) * 2) / 2,
    source: 'rubric+llm',
  };
}

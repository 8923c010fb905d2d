// Formulas in question text are LaTeX between $…$ (rendered by KaTeX in src/pages/MathText.tsx).
// A formula KaTeX cannot read would print as red source on every paper and screen, so it is
// refused where it is written, with the same parser that draws it.
import katex from 'katex';

/** Dollar signs that open or close a formula (`\$` is a literal dollar). */
const DOLLAR = /(?<!\\)\$/g;

/** Why a text's formulas cannot be drawn (an unpaired $, or the first formula KaTeX refuses); undefined when they all can. */
export function formulaProblem(text: string): string | undefined {
  if ((text.match(DOLLAR) ?? []).length % 2) return '公式的 $ 没有成对出现';
  for (const [, formula] of text.matchAll(/(?<!\\)\$([^$]+)(?<!\\)\$/g)) {
    try {
      katex.renderToString(formula, { throwOnError: true });
    } catch {
      return `公式“${formula.length > 30 ? `${formula.slice(0, 30)}…` : formula}”有误，请检查括号和命令`;
    }
  }
  return undefined;
}

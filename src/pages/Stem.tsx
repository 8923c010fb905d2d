// A question stem or option: plain text with LaTeX between $…$, rendered by KaTeX (MathText).
import { MathText } from './MathText';

export function Stem({ text }: { text: string }) {
  return <MathText text={text} />;
}

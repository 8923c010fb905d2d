// What an essay's marking is made of: its dimensions and its notes on single sentences. Apart from
// the rubric that computes them, so the comments that read them import no rubric (no import loop).

export type NoteKind = 'typo' | 'repeat' | 'runon' | 'idiom' | 'rhetoric';

export interface SentenceNote {
  kind: NoteKind;
  /** Index of the sentence in `sentences`. */
  sentence: number;
  /** The words concerned. */
  excerpt: string;
  message: string;
  /** Whether this is praise (good idiom / figure of speech) rather than a problem. */
  good: boolean;
}

export interface Dimension {
  key: 'content' | 'structure' | 'language' | 'length';
  name: string;
  score: number;
  max: number;
  comment: string;
}

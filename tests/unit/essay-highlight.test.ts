// The essay engine's notes point at a sentence and words of the text with its spacing removed;
// the screen marks them in the text as written, line breaks kept.
import { describe, expect, it } from 'vitest';
import { highlightRuns } from '../../src/pages/aiCorrect/composition/highlight';
import type { EssayNote } from '../../src/dataProvider/correct';

const note = (kind: EssayNote['kind'], sentence: number, excerpt: string): EssayNote => ({ kind, sentence, excerpt, message: kind, good: kind === 'idiom' });

describe('highlightRuns', () => {
  it('marks words and whole run-on sentences in the text as written, keeping line breaks', () => {
    const text = '她全神贯注。\n我们我们很好，真的很好。';
    const sentences = ['她全神贯注。', '我们我们很好，真的很好。'];
    const runs = highlightRuns(text, sentences, [note('idiom', 0, '全神贯注'), note('repeat', 1, '我们我们'), note('runon', 1, '我们我们很好…')]);
    expect(runs.map((r) => r.text).join('')).toBe(text);
    expect(runs.find((r) => r.text === '全神贯注')?.notes).toEqual([0]);
    expect(runs.find((r) => r.text === '我们我们')?.notes).toEqual([1, 2]);
    expect(runs.find((r) => r.text === '很好，真的很好。')?.notes).toEqual([2]);
    expect(runs.find((r) => r.text.includes('\n'))?.notes).toEqual([]);
  });

  it('a note across a line break keeps the break inside the mark', () => {
    const runs = highlightRuns('全神\n贯注', ['全神贯注'], [note('idiom', 0, '全神贯注')]);
    expect(runs).toEqual([{ text: '全神\n贯注', notes: [0] }]);
  });

  it('shows the text unmarked when the sentences do not match it', () => {
    expect(highlightRuns('别的文字', ['不一样'], [note('typo', 0, '不')])).toEqual([{ text: '别的文字', notes: [] }]);
  });
});

// Answer groups of the by-question review: the same reading, however typed, is one group; a single
// student can be taken out; lone answers make no group.
import { describe, expect, it } from 'vitest';
import { answerGroups, normalizeAnswer } from '../../src/pages/aiCorrect/answerGroups';

describe('answer groups', () => {
  it('groups readings that differ only in width, spaces and case, largest first', () => {
    expect(normalizeAnswer('ｘ＝３')).toBe('x=3');
    const rows = [
      { resultId: 1, given: 'x=3' },
      { resultId: 2, given: 'X = 3' },
      { resultId: 3, given: 'ｘ＝３' },
      { resultId: 4, given: '5' },
      { resultId: 5, given: '' },
      { resultId: 6, given: ' ' },
      { resultId: 7, given: '7' },
    ];
    expect(answerGroups(rows, new Set())).toEqual([
      { key: 'x=3', shown: 'x=3', resultIds: [1, 2, 3] },
      { key: '', shown: '', resultIds: [5, 6] },
    ]);
  });

  it('leaves a student taken out of the group to be marked alone', () => {
    const rows = [1, 2, 3].map((resultId) => ({ resultId, given: '12' }));
    expect(answerGroups(rows, new Set([2]))).toEqual([{ key: '12', shown: '12', resultIds: [1, 3] }]);
    expect(answerGroups(rows, new Set([2, 3]))).toEqual([]);
  });
});

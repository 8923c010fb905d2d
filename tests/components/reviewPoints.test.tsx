import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PointsInput } from '../../src/pages/aiCorrect/reviewPoints';

const flagged = { no: 3, given: 'A', expected: 'A', score: 5, max: 5, needsReview: true, reasons: ['涂卡较浅，请老师确认'] };

describe('points input of the review screen', () => {
  it("Enter confirms the machine's own points of a flagged item (sends them)", async () => {
    const onSave = vi.fn();
    render(<PointsInput item={flagged} reviewed={undefined} state={undefined} onSave={onSave} label="第3题得分" />);
    const input = screen.getByRole('textbox', { name: '第3题得分' });
    expect(input).toHaveValue('5');
    await userEvent.click(input);
    await userEvent.keyboard('{Enter}');
    expect(onSave).toHaveBeenCalledWith(5);
    // Retyped to the same value and confirmed again: still sent.
    await userEvent.clear(input);
    await userEvent.type(input, '5{Enter}');
    expect(onSave).toHaveBeenCalledTimes(2);
  });

  it('leaving the input unchanged sends nothing; a change is saved on leaving', async () => {
    const onSave = vi.fn();
    render(<PointsInput item={flagged} reviewed={undefined} state={undefined} onSave={onSave} label="第3题得分" />);
    const input = screen.getByRole('textbox', { name: '第3题得分' });
    await userEvent.click(input);
    await userEvent.tab();
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, '4');
    await userEvent.tab();
    expect(onSave).toHaveBeenCalledWith(4);
  });
});

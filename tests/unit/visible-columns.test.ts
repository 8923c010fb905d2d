// The export of a list carries the columns the user sees, in the order react-admin's column
// chooser keeps them.
import { describe, expect, it } from 'vitest';
import { visibleSources } from '../../src/resources/views/Transfer';

const available = [
  { index: '0', source: 'orderNo', label: '订单号' },
  { index: '1', source: 'partnerName', label: '合作伙伴' },
  { index: '2', source: 'amountFen', label: '金额' },
  { index: '3', label: '操作' },
];

describe('visibleSources', () => {
  it('is every column with a source when the user has chosen nothing', () => {
    expect(visibleSources(available, undefined, undefined)).toEqual(['orderNo', 'partnerName', 'amountFen']);
  });
  it('leaves out the omitted columns', () => {
    expect(visibleSources(available, undefined, ['partnerName'])).toEqual(['orderNo', 'amountFen']);
  });
  it('follows the chosen columns and their order', () => {
    expect(visibleSources(available, ['2', '0', '3'], ['amountFen'])).toEqual(['amountFen', 'orderNo']);
  });
  it('is empty before the list has rendered its columns', () => {
    expect(visibleSources(undefined, undefined, undefined)).toEqual([]);
  });
});

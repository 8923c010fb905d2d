// Our numbers for orders (PO…), recharges (RC…), refunds (RF…) and statements (ST…): the China
// time to the second and six random digits, so they sort by time, read well on the phone and do
// not reveal how many orders there are.
import { randomInt } from 'node:crypto';
import { fileStamp } from '../../../src/domain/format';

export function newNumber(prefix: 'PO' | 'PB' | 'RC' | 'RF' | 'RT' | 'ST' | 'WD', now = new Date()): string {
  return `${prefix}${fileStamp(now)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

// Our numbers for orders (PO…), recharges (RC…), refunds (RF…) and statements (ST…): the China
// time to the second and six random digits, so they sort by time, read well on the phone and do
// not reveal how many orders there are.
import { randomInt } from 'node:crypto';

const CHINA_OFFSET_MS = 8 * 3600 * 1000;

/** China date and time to the second, yyyyMMddHHmmss (numbers, export file names). */
export const chinaStamp = (now = new Date()) => new Date(now.getTime() + CHINA_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);

export function newNumber(prefix: 'PO' | 'RC' | 'RF' | 'ST', now = new Date()): string {
  return `${prefix}${chinaStamp(now)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/** 'YYYY-MM-DD' China day → the instant it starts. */
export const chinaDayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);

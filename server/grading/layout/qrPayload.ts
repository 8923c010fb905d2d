import type { SheetCopy } from './types.js';

// Compact, versioned payload so the QR stays at a low version (large modules read reliably from
// phone photos). Fields are separated by '|', which sheet ids and student ids must not contain.
const PREFIX = 'XZ1';

export function encodeCopy(copy: SheetCopy): string {
  for (const v of [copy.sheetId, copy.studentId ?? '']) {
    if (v.includes('|')) throw new Error(`答题卡编号或学号不能包含"|"：${v}`);
  }
  return [PREFIX, copy.sheetId, String(copy.page), copy.studentId ?? ''].join('|');
}

export function decodeCopy(text: string): SheetCopy | null {
  const parts = text.split('|');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const page = Number(parts[2]);
  if (!parts[1] || !Number.isInteger(page) || page < 1) return null;
  return { sheetId: parts[1], page, ...(parts[3] ? { studentId: parts[3] } : {}) };
}

// How orders read on screen: money in yuan from fen, times in China time.
import { yuan } from '../../domain/partner';

export const money = (fen: unknown) => (typeof fen === 'number' ? `¥${yuan(fen)}` : '-');

/** 2026-11-25 14:03 */
export function timeText(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  return new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).replace(/\//g, '-');
}

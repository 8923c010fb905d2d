// A verified gateway notice goes to what it is about: an order (PO…), a recharge (RC…) or a refund.
import type { Db } from '../../../db';
import { applyRechargePaid } from '../../partner/recharges';
import { applyOrderPaid, applyRefunded, type NoticeOutcome } from '../orders';
import type { GatewayNotice, PaymentProvider } from './provider';

export function applyNotice(db: Db, provider: PaymentProvider, notice: GatewayNotice): Promise<NoticeOutcome> {
  if (notice.kind === 'ignored') return Promise.resolve('ignored');
  if (notice.kind === 'refunded') return applyRefunded(db, notice);
  return notice.outTradeNo.startsWith('RC') ? applyRechargePaid(db, provider, notice) : applyOrderPaid(db, provider, notice);
}

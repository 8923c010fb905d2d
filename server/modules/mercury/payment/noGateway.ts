// No payment gateway: a production install until a real one (WeChat Pay, Alipay) is connected.
// Paying online is refused in Chinese instead of falling back to the sandbox, whose page would
// let anyone mark an order paid.
import { conflict } from '../../../http/envelope';
import type { PaymentNotice, PaymentProvider, TradeState } from './provider';

export const NO_GATEWAY_MESSAGE = '暂未开通在线支付（未配置支付通道），请联系平台管理员';

export class NoGateway implements PaymentProvider {
  readonly name = 'none';

  async createPayment(): Promise<{ codeUrl: string }> {
    throw conflict(NO_GATEWAY_MESSAGE);
  }

  async queryPayment(): Promise<TradeState> {
    return { state: 'CLOSED' };
  }

  async closePayment(): Promise<void> {}

  async refund(): Promise<void> {
    throw conflict(NO_GATEWAY_MESSAGE);
  }

  /** Nobody can send a notice that verifies. */
  readNotice(): PaymentNotice | null {
    return null;
  }
}

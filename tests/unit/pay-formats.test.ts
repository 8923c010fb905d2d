// The wire formats of the real gateways: Alipay's yuan strings and China times, the signing string,
// the raw answer node the signature covers, and WeChat Pay's RFC 3339 time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chinaTime, fenToYuan, fromChinaTime, rawNode, signingString, yuanToFen } from '../../server/modules/mercury/payment/alipay';
import { chinaRfc3339 } from '../../server/modules/mercury/payment/wechat';

describe('Alipay formats', () => {
  it('writes fen as yuan with two decimals and reads them back', () => {
    expect([fenToYuan(1), fenToYuan(105), fenToYuan(123_45), fenToYuan(50_000_000)]).toEqual(['0.01', '1.05', '123.45', '500000.00']);
    expect([yuanToFen('0.1'), yuanToFen('1'), yuanToFen('88.88')]).toEqual([10, 100, 8888]);
    fc.assert(fc.property(fc.integer({ min: 1, max: 5_000_000_000 }), (fen) => yuanToFen(fenToYuan(fen)) === fen));
  });

  it.each(['', '-1.00', '1.001', '1e3', '01.00', ' 1.00', '1,000.00', 1])('refuses %j as an amount', (value) => {
    expect(yuanToFen(value)).toBeUndefined();
  });

  it('writes and reads China time', () => {
    const at = new Date('2026-11-27T16:05:09Z');
    expect(chinaTime(at)).toBe('2026-11-28 00:05:09');
    expect(fromChinaTime('2026-11-28 00:05:09')).toEqual(at);
    expect(fromChinaTime('2026-11-28T00:05:09')).toBeUndefined();
    expect(chinaRfc3339(at)).toBe('2026-11-28T00:05:09+08:00');
  });

  it('signs the sorted non-empty pairs, leaving out what it is told', () => {
    expect(signingString({ method: 'alipay.trade.query', app_id: '1', sign: 'x', sign_type: 'RSA2', empty: '' })).toBe('app_id=1&method=alipay.trade.query&sign_type=RSA2');
    expect(signingString({ b: '2', a: '1', sign: 'x', sign_type: 'RSA2' }, ['sign', 'sign_type'])).toBe('a=1&b=2');
  });

  it('cuts out the answer node exactly as sent, braces and quotes in strings included', () => {
    const node = '{"code":"10000","msg":"Success","qr_code":"https:\\/\\/qr.alipay.com\\/x","note":"a \\"}\\" {b}","n":{"x":1}}';
    expect(rawNode(`{"alipay_trade_precreate_response": ${node},"sign":"abc"}`, 'alipay_trade_precreate_response')).toBe(node);
    expect(rawNode('{"error_response":{"code":"40002"}}', 'alipay_trade_precreate_response')).toBeUndefined();
    expect(rawNode('{"alipay_trade_precreate_response":{"code":"1"', 'alipay_trade_precreate_response')).toBeUndefined();
  });
});

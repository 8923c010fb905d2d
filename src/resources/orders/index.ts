// 订单管理 (/orders, partner levels 1–3): the paper orders of the caller's subtree with their pay
// refund and 发货 status. The list, filters and export are config; detail, pay, cancel, refund, 发货
// (the seller), 确认收货 and 退货 (the buyer) are row actions; a new order and the 收货地址 book
// are toolbar actions (docs/api-partner-orders.md).
import type { RaRecord } from 'ra-core';
import { ORDER_STATUSES, PAY_STATUSES, REFUND_STATUSES, orderStateLabel } from '../../domain/orders';
import { FULFIL_STATUSES, fulfilLabel } from '../../domain/fulfilment';
import { defineResource, lazyNamed } from '../define';
import { money, dateTime } from '../../domain/format';

const DetailButton = lazyNamed(() => import('./OrderActions'), 'DetailButton');
const PayButton = lazyNamed(() => import('./OrderActions'), 'PayButton');
const CancelButton = lazyNamed(() => import('./OrderActions'), 'CancelButton');
const RefundButton = lazyNamed(() => import('./OrderActions'), 'RefundButton');
const NewOrderButton = lazyNamed(() => import('./NewOrder'), 'NewOrderButton');
const ShipButton = lazyNamed(() => import('./Fulfilment'), 'ShipButton');
const ReceiptButton = lazyNamed(() => import('./Fulfilment'), 'ReceiptButton');
const ReturnButton = lazyNamed(() => import('./Fulfilment'), 'ReturnButton');
const AddressBookButton = lazyNamed(() => import('./Fulfilment'), 'AddressBookButton');

export default defineResource({
  name: 'orders',
  label: '订单',
  endpoints: { kind: 'paged', list: '/api/mercury/v1/order/page', idField: 'orderNo' },
  fields: [
    { type: 'text', source: 'orderNo', label: '订单号', width: 200 },
    { type: 'text', source: 'buyerName', label: '下单方', width: 180 },
    { type: 'text', source: 'sellerName', label: '供货方', width: 180 },
    { type: 'text', source: 'itemsText', label: '商品', width: 260 },
    { type: 'computed', source: 'amountFen', label: '金额', render: (r: RaRecord) => money(r.amountFen) },
    { type: 'computed', source: 'status', label: '订单状态', render: (r: RaRecord) => orderStateLabel({ status: r.status, refundStatus: r.refundStatus }) },
    { type: 'select', source: 'payStatus', label: '支付状态', choices: PAY_STATUSES },
    { type: 'select', source: 'refundStatus', label: '退款状态', choices: REFUND_STATUSES },
    { type: 'computed', source: 'fulfilStatus', label: '发货状态', card: true, render: (r: RaRecord) => fulfilLabel({ status: r.status, refundStatus: r.refundStatus, fulfilStatus: r.fulfilStatus }) },
    { type: 'computed', source: 'createdAt', label: '下单时间', render: (r: RaRecord) => dateTime(r.createdAt) },
    { type: 'computed', source: 'paidAt', label: '支付时间', render: (r: RaRecord) => dateTime(r.paidAt) },
    { type: 'text', source: 'remark', label: '备注', width: 200 },
  ],
  filters: [
    { type: 'search', source: 'keyword', label: '订单号/下单方', placeholder: '输入订单号或合作伙伴名称' },
    { type: 'select', source: 'status', label: '订单状态', choices: ORDER_STATUSES },
    { type: 'select', source: 'payStatus', label: '支付状态', choices: PAY_STATUSES },
    { type: 'select', source: 'refundStatus', label: '退款状态', choices: REFUND_STATUSES },
    { type: 'select', source: 'fulfilStatus', label: '发货状态', choices: FULFIL_STATUSES },
    { type: 'date', source: 'dateFrom', label: '下单日期从' },
    { type: 'date', source: 'dateTo', label: '至' },
  ],
  perPage: 20,
  recordRepresentation: (record) => `订单 ${record.orderNo}`,
  operations: { create: false, edit: false, delete: false, bulkDelete: false },
  transfer: { export: { url: '/api/mercury/v1/order/export', name: '订单', columns: true } },
  savedFilters: true,
  rowActions: [DetailButton, PayButton, ShipButton, ReceiptButton, CancelButton, RefundButton, ReturnButton],
  toolbarActions: [NewOrderButton, AddressBookButton],
});

// 平台订单发货 (/platform-orders, the platform administrator): the paper orders of level-1 partners,
// which the platform sells — 待发货 first. 发货 (partial shipments allowed) and 详情 (shipments,
// returns to confirm back, 订单动态) are the same actions as on /orders, against the platform's
// endpoints (docs/api-partner-orders.md "发货与收货").
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { RaRecord } from 'ra-core';
import type { AppDataProvider } from '../../dataProvider';
import type { OrderRecord } from '../../domain/orders';
import { FULFIL_STATUSES, FulfilStatus, fulfilLabel } from '../../domain/fulfilment';
import { dateTime, money } from '../../domain/format';
import { ScreenCard } from '../../ui/ScreenCard';
import { EmptyState } from '../../ui/EmptyState';
import { TablePaging } from '../../ui/TablePaging';
import type { ScreenProps } from '../screen';
import { PlatformSide, ShipButton, shipToText } from '../../resources/orders/Fulfilment';
import { DetailButton } from '../../resources/orders/OrderActions';

export default function PlatformOrders({ route }: ScreenProps) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [fulfil, setFulfil] = useState<number | ''>(FulfilStatus.awaiting);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const query = useQuery({
    queryKey: ['platformOrders', fulfil, keyword, page, size],
    queryFn: () => dataProvider.platformOrders({ current: page + 1, size, ...(fulfil === '' ? {} : { fulfilStatus: fulfil }), ...(keyword.trim() ? { keyword: keyword.trim() } : {}) }),
    retry: false,
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const actions = (o: OrderRecord) => (
    <Stack direction="row" spacing={0.5}>
      <DetailButton record={o as unknown as RaRecord} />
      <ShipButton record={o as unknown as RaRecord} />
    </Stack>
  );
  return (
    <PlatformSide.Provider value={true}>
      <ScreenCard title={route.meta.title} description="一级合作伙伴向平台订购的纸张：按订单发货（可分批），填写承运商和运单号；合作伙伴退货后在详情中确认收到退货并退款">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 2, mb: 1.5 }}>
          <TextField
            select
            size="small"
            label="发货状态"
            value={fulfil}
            onChange={(e) => {
              setFulfil(e.target.value === '' ? '' : Number(e.target.value));
              setPage(0);
            }}
            sx={{ width: { xs: '100%', sm: 160 } }}
          >
            <MenuItem value="">全部</MenuItem>
            {FULFIL_STATUSES.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label="订单号/下单方"
            value={keyword}
            onChange={(e) => {
              setKeyword(e.target.value.slice(0, 50));
              setPage(0);
            }}
            sx={{ width: { xs: '100%', sm: 260 } }}
          />
        </Stack>
        {!data || !data.records.length ? (
          <EmptyState text={fulfil === FulfilStatus.awaiting ? '暂无待发货的订单：一级合作伙伴支付订单后会出现在这里' : '暂无订单'} />
        ) : (
          <>
            {phone ? (
              <Stack spacing={1.5}>
                {data.records.map((o) => (
                  <Box key={o.orderNo} data-testid={`platform-order-${o.orderNo}`} sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
                    <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}>
                      <Typography sx={{ fontWeight: 600 }}>{money(o.amountFen)}</Typography>
                      <Typography variant="body2" color="primary">
                        {fulfilLabel(o)}
                      </Typography>
                    </Stack>
                    <Typography variant="body2">{o.buyerName}</Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {o.itemsText}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                      {o.shipTo ? shipToText(o.shipTo) : '未填写收货地址'}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      {dateTime(o.createdAt)} · {o.orderNo}
                    </Typography>
                    <Box sx={{ mt: 1 }}>{actions(o)}</Box>
                  </Box>
                ))}
              </Stack>
            ) : (
              <TableContainer>
                <Table size="small" aria-label="平台订单发货">
                  <TableHead sx={{ '& th': { whiteSpace: 'nowrap' } }}>
                    <TableRow>
                      <TableCell>订单号</TableCell>
                      <TableCell>下单方</TableCell>
                      <TableCell>商品</TableCell>
                      <TableCell align="right">金额</TableCell>
                      <TableCell>发货状态</TableCell>
                      <TableCell>收货地址</TableCell>
                      <TableCell>支付时间</TableCell>
                      <TableCell>操作</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.records.map((o) => (
                      <TableRow key={o.orderNo} data-testid={`platform-order-${o.orderNo}`}>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{o.orderNo}</TableCell>
                        <TableCell sx={{ minWidth: 140 }}>{o.buyerName}</TableCell>
                        <TableCell sx={{ minWidth: 200 }}>{o.itemsText}</TableCell>
                        <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                          {money(o.amountFen)}
                        </TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{fulfilLabel(o)}</TableCell>
                        <TableCell sx={{ minWidth: 200 }}>{o.shipTo ? shipToText(o.shipTo) : '—'}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(o.paidAt)}</TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{actions(o)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
            <TablePaging
              total={data.total}
              page={page}
              size={size}
              onChange={(p, n) => {
                setPage(p);
                setSize(n);
              }}
            />
          </>
        )}
      </ScreenCard>
    </PlatformSide.Provider>
  );
}

// A new paper order: the packs at the caller's level price, a quantity for each, the 收货地址 (the
// default pre-selected), a remark; placing it leads straight to the pay dialog. On /orders (every level) and on /account (level 1).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useRefresh } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableContainer from '@mui/material/TableContainer';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddShoppingCartOutlined from '@mui/icons-material/AddShoppingCartOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { PaperPack, PlacedOrder } from '../../dataProvider/orders';
import { ORDER_MAX_QUANTITY, REMARK_MAX_LENGTH } from '../../domain/orders';
import { EmptyState } from '../../ui/EmptyState';
import { OrderPayDialog } from './OrderPayDialog';
import { AddressPicker, useChosenAddress } from './Fulfilment';
import { money } from '../../domain/format';

/** `initial`: quantities by pack to start from (我的账户's 补货建议 fills them in). */
export function NewOrderForm({ onPlaced, initial }: { onPlaced: (order: PlacedOrder) => void; initial?: Record<number, number> }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const packList = useQuery({ queryKey: ['paperPacks'], queryFn: () => dataProvider.paperPacks(), retry: false });
  const packs: PaperPack[] | undefined = packList.isError ? [] : packList.data;
  const [quantities, setQuantities] = useState<Record<number, number>>(initial ?? {});
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);
  const [picked, setPicked] = useState<number>();
  const addressId = useChosenAddress(picked);
  // On a phone each pack is a card (name, price, quantity, subtotal stacked): nothing scrolls sideways.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (!packs) return <CircularProgress size={24} />;
  if (!packs.length) return <EmptyState />;
  const items = packs.filter((p) => (quantities[p.packId] ?? 0) > 0).map((p) => ({ packId: p.packId, quantity: quantities[p.packId] }));
  const tooMany = packs.some((p) => (quantities[p.packId] ?? 0) > ORDER_MAX_QUANTITY);
  const total = packs.reduce((sum, p) => sum + p.priceFen * (quantities[p.packId] ?? 0), 0);
  const setQuantity = (packId: number, text: string) => {
    // Not clamped: 1,000,000,000 typed must not quietly become 999; the field says the limit instead.
    const n = Math.max(0, Math.floor(Number(text) || 0));
    setQuantities((q) => ({ ...q, [packId]: n }));
  };
  const submit = async () => {
    setBusy(true);
    try {
      const placed = await dataProvider.addPaperOrder({ items, remark: remark.trim() || undefined, addressId });
      setQuantities({});
      setRemark('');
      onPlaced(placed);
    } catch {
      // The http client showed why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={2}>
      {phone ? (
        <Stack spacing={1} aria-label="纸张规格">
          {packs.map((p) => {
            const n = quantities[p.packId] ?? 0;
            return (
              <Box key={p.packId} data-testid={`pack-${p.packId}`} sx={{ p: 1.25, border: 1, borderColor: 'divider', borderRadius: 1.5 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {p.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {p.sheets} 张 · 进货价 {money(p.priceFen)}
                </Typography>
                <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 1, gap: 1 }}>
                  <TextField
                    size="small"
                    type="number"
                    label="数量"
                    value={n}
                    onChange={(e) => setQuantity(p.packId, e.target.value)}
                    error={n > ORDER_MAX_QUANTITY}
                    helperText={n > ORDER_MAX_QUANTITY ? `最多 ${ORDER_MAX_QUANTITY} 包` : undefined}
                    slotProps={{ htmlInput: { min: 0, max: ORDER_MAX_QUANTITY, 'aria-label': `${p.name} 数量` } }}
                    sx={{ width: 110 }}
                  />
                  <Typography variant="body2">小计 {money(p.priceFen * n)}</Typography>
                </Stack>
              </Box>
            );
          })}
        </Stack>
      ) : (
      <TableContainer>
        <Table size="small" sx={{ '& th, & td': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell>纸张规格</TableCell>
              <TableCell align="right">张数</TableCell>
              <TableCell align="right">进货价</TableCell>
              <TableCell align="right" sx={{ width: 120 }}>
                数量
              </TableCell>
              <TableCell align="right">小计</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {packs.map((p) => (
              <TableRow key={p.packId}>
                <TableCell>{p.name}</TableCell>
                <TableCell align="right">{p.sheets}</TableCell>
                <TableCell align="right">{money(p.priceFen)}</TableCell>
                <TableCell align="right">
                  <TextField
                    size="small"
                    type="number"
                    value={quantities[p.packId] ?? 0}
                    onChange={(e) => setQuantity(p.packId, e.target.value)}
                    error={(quantities[p.packId] ?? 0) > ORDER_MAX_QUANTITY}
                    helperText={(quantities[p.packId] ?? 0) > ORDER_MAX_QUANTITY ? `最多 ${ORDER_MAX_QUANTITY} 包` : undefined}
                    slotProps={{ htmlInput: { min: 0, max: ORDER_MAX_QUANTITY, 'aria-label': `${p.name} 数量` } }}
                    sx={{ width: 96 }}
                  />
                </TableCell>
                <TableCell align="right">{money(p.priceFen * (quantities[p.packId] ?? 0))}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      )}
      <AddressPicker value={picked} onChange={setPicked} />
      <TextField label="备注" value={remark} onChange={(e) => setRemark(e.target.value.slice(0, REMARK_MAX_LENGTH))} size="small" fullWidth helperText={`${remark.length}/${REMARK_MAX_LENGTH}`} />
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 2, flexWrap: 'wrap' }}>
        <Typography>
          合计 <b>{money(total)}</b>
        </Typography>
        <Button variant="contained" disableElevation onClick={submit} disabled={busy || !items.length || tooMany || addressId === undefined} startIcon={busy ? <CircularProgress size={14} /> : <AddShoppingCartOutlined />}>
          提交订单并支付
        </Button>
      </Box>
    </Stack>
  );
}

/** The pay dialog of a just-placed order. */
export function PlacedOrderPay({ order, onDone }: { order: PlacedOrder; onDone: () => void }) {
  return <OrderPayDialog order={order} onClose={onDone} />;
}

export function NewOrderButton() {
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [placed, setPlaced] = useState<PlacedOrder>();
  return (
    <>
      <Button variant="contained" disableElevation size="small" startIcon={<AddShoppingCartOutlined />} onClick={() => setOpen(true)}>
        新建订单
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth>
        <DialogTitle>新建纸张订单</DialogTitle>
        <DialogContent>
          <NewOrderForm
            onPlaced={(order) => {
              setOpen(false);
              setPlaced(order);
              refresh();
            }}
          />
        </DialogContent>
      </Dialog>
      {placed && (
        <PlacedOrderPay
          order={placed}
          onDone={() => {
            setPlaced(undefined);
            refresh();
          }}
        />
      )}
    </>
  );
}

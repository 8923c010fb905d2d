// 常用筛选 over a generic list: apply, save and delete the user's filters of this resource. They
// are kept on the server (react-admin's own saved queries live in the browser and are lost at
// sign-out). Nothing is shown as saved or deleted before the server says so.
import { useState } from 'react';
import { Button, useDataProvider, useListContext, useNotify } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MuiButton from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import BookmarkBorderOutlined from '@mui/icons-material/BookmarkBorderOutlined';
import CloseOutlined from '@mui/icons-material/CloseOutlined';
import type { AppDataProvider } from '../../dataProvider';
import type { SavedFilter } from '../../dataProvider/savedFilters';
import { SAVED_FILTER_NAME_MAX } from '../../domain/savedFilters';
import type { ResourceConfig } from '../types';

/** The filter values worth keeping: empty inputs are not part of a view. */
export function currentFilter(values: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => v !== '' && v !== undefined && v !== null));
}

export function SavedFiltersButton({ config }: { config: ResourceConfig }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { filterValues, setFilters } = useListContext();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['savedFilters', config.name];
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const saved = useQuery({ queryKey: key, queryFn: () => dataProvider.savedFilters(config.name), enabled: !!anchor });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const save = useMutation({
    mutationFn: () => dataProvider.saveFilter(config.name, name.trim(), currentFilter(filterValues)),
    onSuccess: (row) => {
      notify(`已保存常用筛选“${row.name}”`, { type: 'success' });
      setNaming(false);
      setName('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (row: SavedFilter) => dataProvider.removeSavedFilter(row.id),
    onSuccess: (_, row) => {
      notify(`已删除常用筛选“${row.name}”`, { type: 'info' });
      refresh();
    },
  });
  const apply = (row: SavedFilter) => {
    setFilters(row.filter, Object.fromEntries(Object.keys(row.filter).map((k) => [k, true])));
    setAnchor(null);
  };
  const empty = Object.keys(currentFilter(filterValues)).length === 0;
  const rows = saved.data ?? [];
  return (
    <>
      <Button label="常用筛选" onClick={(event) => setAnchor(event.currentTarget)}>
        <BookmarkBorderOutlined />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { minWidth: 240 } } }}>
        {saved.isPending && <MenuItem disabled>加载中…</MenuItem>}
        {saved.isSuccess && !rows.length && <MenuItem disabled>暂无数据</MenuItem>}
        {rows.map((row) => (
          <MenuItem key={row.id} onClick={() => apply(row)} sx={{ pr: 1 }}>
            <ListItemText primary={row.name} />
            <IconButton
              size="small"
              aria-label={`删除${row.name}`}
              disabled={remove.isPending}
              onClick={(event) => {
                event.stopPropagation();
                remove.mutate(row);
              }}
            >
              <CloseOutlined fontSize="small" />
            </IconButton>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          disabled={empty}
          onClick={() => {
            setAnchor(null);
            setNaming(true);
          }}
        >
          {empty ? '先选择筛选条件，再保存' : '保存当前筛选…'}
        </MenuItem>
      </Menu>
      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="xs">
        <DialogTitle>保存常用筛选</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="名称"
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: SAVED_FILTER_NAME_MAX } }}
            helperText="同名的常用筛选会被替换"
          />
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setNaming(false)}>取消</MuiButton>
          <MuiButton variant="contained" disabled={!name.trim() || save.isPending} onClick={() => save.mutate()}>
            {save.isPending ? '保存中…' : '保存'}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

// The rubric of a question on the marking screen: each item a button (its key beside it) that
// applies it to the paper or takes it off, and, on request, the items to edit — label and points,
// added, changed (every paper it marks follows) or removed.
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import type { AppDataProvider } from '../../../dataProvider';
import type { RubricItem } from '../../../domain/marking';

/** Keys that apply items 1, 2, …: the home row, F left for full marks. */
export const RUBRIC_KEYS = ['a', 's', 'd', 'g', 'h', 'j', 'k', 'l', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', 'z', 'x'];

const signed = (n: number) => (n > 0 ? `+${n}` : `−${Math.abs(n)}`);

function ItemEditor({ item, onSave, onRemove }: { item?: RubricItem; onSave: (label: string, points: number) => Promise<boolean>; onRemove?: () => void }) {
  const [label, setLabel] = useState(item?.label ?? '');
  const [points, setPoints] = useState(item ? String(item.points) : '');
  const [busy, setBusy] = useState(false);
  const changed = !item || label !== item.label || points !== String(item.points);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }} data-testid={item ? 'rubric-edit' : 'rubric-new'}>
      <TextField size="small" placeholder="如 列式正确" value={label} onChange={(e) => setLabel(e.target.value)} slotProps={{ htmlInput: { maxLength: 30, 'aria-label': '细则内容' } }} sx={{ flex: '1 1 130px', minWidth: 0 }} />
      <TextField size="small" placeholder="分值" value={points} onChange={(e) => setPoints(e.target.value)} slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 6, 'aria-label': '细则分值' } }} sx={{ width: 64, flexShrink: 0 }} />
      <Button
        size="small"
        disabled={busy || !changed || !label.trim() || points.trim() === ''}
        onClick={async () => {
          setBusy(true);
          const done = await onSave(label.trim(), Number(points));
          setBusy(false);
          if (done && !item) {
            setLabel('');
            setPoints('');
          }
        }}
        sx={{ minWidth: 0, flexShrink: 0 }}
      >
        {item ? '保存' : '添加'}
      </Button>
      {onRemove && (
        <IconButton size="small" aria-label={`删除细则 ${item?.label ?? ''}`} onClick={onRemove}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}

export function RubricPanel({ editable, taskId, no, rubric, applied, disabled, onToggle, onChanged }: {
  /** The task owner writes the rubric; markers apply it. */
  editable: boolean;
  taskId: number;
  no: number;
  rubric: RubricItem[];
  applied: number[];
  disabled: boolean;
  onToggle: (item: RubricItem) => void;
  /** After an item was added, changed or removed: the papers it marks have new points. */
  onChanged: () => void;
}) {
  const api = useDataProvider<AppDataProvider>();
  const [editing, setEditing] = useState(false);
  const save = async (body: { id?: number; label: string; points: number }) => {
    try {
      await api.saveRubricItem({ taskId, no, ...body });
      onChanged();
      return true;
    } catch {
      // The http client shows the server's reason.
      return false;
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 0.75, minWidth: 0 }} data-testid="rubric">
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          评分细则
        </Typography>
        {editable && (
          <Button size="small" onClick={() => setEditing((e) => !e)}>
            {editing ? '完成' : rubric.length ? '编辑细则' : '添加细则'}
          </Button>
        )}
      </Box>
      {rubric.map((item, i) => {
        const on = applied.includes(item.id);
        return (
          <Button
            key={item.id}
            variant={on ? 'contained' : 'outlined'}
            color={item.points < 0 ? 'error' : 'primary'}
            size="small"
            disabled={disabled}
            onClick={() => onToggle(item)}
            aria-pressed={on}
            data-testid="rubric-item"
            sx={{ justifyContent: 'space-between', textTransform: 'none', gap: 1 }}
          >
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {RUBRIC_KEYS[i] && (
                <Box component="span" sx={{ display: { xs: 'none', md: 'inline' }, opacity: 0.7, mr: 0.5 }}>
                  {RUBRIC_KEYS[i]!.toUpperCase()}
                </Box>
              )}
              {item.label}
            </Box>
            <span data-testid="rubric-points">{signed(item.points)}</span>
          </Button>
        );
      })}
      {editing && (
        <Box sx={{ display: 'grid', gap: 0.75, borderTop: 1, borderColor: 'divider', pt: 1 }}>
          {rubric.map((item) => (
            <ItemEditor
              key={`${item.id}-${item.label}-${item.points}`}
              item={item}
              onSave={(label, points) => save({ id: item.id, label, points })}
              onRemove={async () => {
                try {
                  await api.removeRubricItem(taskId, item.id);
                  onChanged();
                } catch {
                  // Shown by the http client.
                }
              }}
            />
          ))}
          <ItemEditor onSave={(label, points) => save({ label, points })} />
          <Typography variant="caption" color="text.secondary">
            得分为所选细则分值之和（0 到满分之间）；改细则分值，用过它的学生得分随之更新。
          </Typography>
        </Box>
      )}
    </Box>
  );
}

// The marker's pen above the crop: pick ✓, ✗, 圈画, 下划线 or 文字, then tap or drag on the answer.
// Each stroke is saved at once (the whole list of the paper's marks); 撤销 takes the last one off,
// 清除 all of them. With no pen picked, the crop is only looked at.
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { ANNOTATION_KINDS, ANNOTATION_LABELS, MAX_ANNOTATION_TEXT, type Annotation } from '../../../domain/marking';

export type Pen = Annotation['kind'] | null;

const GLYPH: Record<Annotation['kind'], string> = { check: '✓', cross: '✗', circle: '○', underline: '__', text: '字' };

export function PenBar({ pen, setPen, text, setText, count, onUndo, onClear, busy }: {
  pen: Pen;
  setPen: (pen: Pen) => void;
  text: string;
  setText: (text: string) => void;
  count: number;
  onUndo: () => void;
  onClear: () => void;
  busy: boolean;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }} data-testid="pen-bar">
      <ToggleButtonGroup size="small" exclusive value={pen} onChange={(_, v: Pen) => setPen(v)} aria-label="批注">
        {ANNOTATION_KINDS.map((k) => (
          <ToggleButton key={k} value={k} aria-label={ANNOTATION_LABELS[k]} title={ANNOTATION_LABELS[k]} sx={{ px: 1.25, minWidth: 40, color: '#d81b60', fontWeight: 700 }}>
            {GLYPH[k]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {pen === 'text' && (
        <TextField
          size="small"
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, MAX_ANNOTATION_TEXT))}
          placeholder="批注文字，再点答案处"
          slotProps={{ htmlInput: { 'aria-label': '批注文字', maxLength: MAX_ANNOTATION_TEXT } }}
          sx={{ width: 180 }}
        />
      )}
      <Button size="small" disabled={busy || count === 0} onClick={onUndo}>
        撤销
      </Button>
      <Button size="small" disabled={busy || count === 0} onClick={onClear}>
        清除批注
      </Button>
    </Box>
  );
}

// The dropdown every header filter uses (SPEC §2.1): '暂无数据' when there is nothing to choose,
// disabled when there is one option or fewer. A single option is a fixed value (a subject leader of
// one subject, the only term), so it reads like a value, not like a broken, greyed-out control.
import type { ReactNode } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import InputAdornment from '@mui/material/InputAdornment';
import { DROPDOWN_DELAY_MS } from '../domain/enums';

export interface FilterOption {
  value: string;
  label: string;
}

export const NO_DATA = '暂无数据';

/** The disabled look undone for a single option: normal text and underline, no dropdown arrow. */
const FIXED_VALUE = {
  '& .MuiInputLabel-root.Mui-disabled': { color: 'text.secondary' },
  '& .MuiInputBase-root.Mui-disabled': { bgcolor: 'rgba(0, 0, 0, 0.06)' },
  '& .MuiInputBase-root.Mui-disabled::before': { borderBottomStyle: 'solid' },
  '& .MuiSelect-select.Mui-disabled': { color: 'text.primary', WebkitTextFillColor: 'currentColor' },
  '& .MuiSelect-icon': { display: 'none' },
} as const;

export function FilterSelect(props: {
  label: string;
  value: string;
  options: readonly FilterOption[];
  onChange: (value: string) => void;
  icon?: ReactNode;
  width?: number;
  placeholder?: string;
}) {
  const { label, options, onChange, icon, width = 150, placeholder = '请选择' } = props;
  // A stale value (e.g. from another role's session) would make MUI warn and show nothing useful.
  const value = options.some((o) => o.value === props.value) ? props.value : '';
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label;
  const fixed = options.length === 1;
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={options.length <= 1}
      onChange={(event) => onChange(event.target.value)}
      sx={{ width, flexShrink: 0, ...(fixed && FIXED_VALUE) }}
      slotProps={{
        inputLabel: { shrink: true },
        input: icon ? { startAdornment: <InputAdornment position="start">{icon}</InputAdornment> } : undefined,
        select: {
          displayEmpty: true,
          renderValue: (v) => labelOf(v as string) ?? (options.length === 0 ? NO_DATA : placeholder),
          MenuProps: { transitionDuration: DROPDOWN_DELAY_MS },
        },
      }}
    >
      {options.length === 0 ? (
        <MenuItem value="" disabled>
          {NO_DATA}
        </MenuItem>
      ) : (
        options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))
      )}
    </TextField>
  );
}

// The board's time range (SPEC §9 query modes): 按年月 a month, 按学期 a term, 自定义 two days. The
// range travels in the address (queryMode, month, term, startDate, endDate), so a school's board
// and a student's detail open on the range the board was showing.
import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { boardMonthOptions, boardTermOptions, chinaToday, MAX_RANGE_DAYS, termOf, type QueryMode, type RangeQuery } from '../../domain/boardRange';
import { QUERY_MODES } from '../../domain/partner';

const KEYS = ['queryMode', 'month', 'term', 'startDate', 'endDate'] as const;

/** The range in an address's query, or this month. */
export function rangeFromSearch(search: URLSearchParams): RangeQuery {
  const q: Record<string, string> = {};
  for (const key of KEYS) {
    const value = search.get(key);
    if (value) q[key] = value;
  }
  return Object.keys(q).length ? (q as RangeQuery) : { queryMode: 'month', month: chinaToday().slice(0, 7) };
}

/** The range as query parameters, for links to the next board. */
export function rangeToSearch(range: RangeQuery): Record<string, string> {
  return Object.fromEntries(KEYS.filter((k) => range[k]).map((k) => [k, String(range[k])]));
}

const WIDTH = { width: 150 };

export function RangeFilter({ value, onChange }: { value: RangeQuery; onChange: (range: RangeQuery) => void }) {
  const today = chinaToday();
  const [custom, setCustom] = useState({ startDate: value.startDate ?? '', endDate: value.endDate ?? '' });
  const mode = value.queryMode ?? 'month';
  const switchMode = (queryMode: QueryMode) => {
    if (queryMode === 'month') onChange({ queryMode, month: today.slice(0, 7) });
    else if (queryMode === 'term') onChange({ queryMode, term: termOf(today) });
    else if (custom.startDate && custom.endDate) onChange({ queryMode, ...custom });
    else onChange({ queryMode, startDate: today.slice(0, 8) + '01', endDate: today });
  };
  // A custom range is sent once both ends are set; the server refuses a wrong one in Chinese.
  const setDay = (key: 'startDate' | 'endDate', day: string) => {
    const next = { ...custom, startDate: value.startDate ?? custom.startDate, endDate: value.endDate ?? custom.endDate, [key]: day };
    setCustom(next);
    if (next.startDate && next.endDate) onChange({ queryMode: 'custom', ...next });
  };
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 1.5 }}>
      <TextField select size="small" label="查询方式" value={mode} onChange={(e) => switchMode(e.target.value as QueryMode)} sx={WIDTH}>
        {QUERY_MODES.map((m) => (
          <MenuItem key={m.value} value={m.value}>
            {m.label}
          </MenuItem>
        ))}
      </TextField>
      {mode === 'month' && (
        <TextField select size="small" label="月份" value={value.month ?? today.slice(0, 7)} onChange={(e) => onChange({ queryMode: 'month', month: e.target.value })} sx={WIDTH}>
          {boardMonthOptions(today).map((m) => (
            <MenuItem key={m.value} value={m.value}>
              {m.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {mode === 'term' && (
        <TextField select size="small" label="学期" value={value.term ?? termOf(today)} onChange={(e) => onChange({ queryMode: 'term', term: e.target.value })} sx={{ width: 230 }}>
          {boardTermOptions(today).map((t) => (
            <MenuItem key={t.value} value={t.value}>
              {t.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {mode === 'custom' && (
        <>
          <TextField
            size="small"
            type="date"
            label="开始日期"
            value={value.startDate ?? custom.startDate}
            onChange={(e) => setDay('startDate', e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today, 'aria-label': '开始日期' } }}
            sx={WIDTH}
          />
          <TextField
            size="small"
            type="date"
            label="结束日期"
            value={value.endDate ?? custom.endDate}
            onChange={(e) => setDay('endDate', e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today, 'aria-label': '结束日期' } }}
            helperText={`最长${MAX_RANGE_DAYS}天`}
            sx={WIDTH}
          />
        </>
      )}
    </Box>
  );
}

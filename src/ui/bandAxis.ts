// The category axis of a bar chart (classes, questions, subjects, score bands) with every label
// shown. On a phone a dozen labels do not fit side by side: they lean at 45° in a smaller type and
// the axis takes the height the leaning labels need, so no two labels overprint.
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';

/** Room a label leans into: about a character of 10 px type per 7 px of height at 45°. */
const leaningHeight = (labels: string[]) => Math.min(90, 20 + 7 * Math.max(0, ...labels.map((l) => [...l].length)));

export function bandAxis(labels: string[], phone: boolean, height = 32) {
  // A few short labels fit even on a phone.
  const lean = phone && labels.length * Math.max(...labels.map((l) => [...l].length), 1) > 16;
  return {
    scaleType: 'band' as const,
    data: labels,
    tickLabelInterval: () => true,
    tickLabelStyle: lean ? { angle: -45, textAnchor: 'end' as const, fontSize: 10 } : { fontSize: 12 },
    height: lean ? Math.max(height, leaningHeight(labels)) : height,
  };
}

/** Below MUI's `sm` breakpoint (600 px): the phone layout. */
export const usePhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

// A student's scan or photo with what grading read drawn over it: each question's region (✓ right,
// ✗ wrong, orange while it waits for the teacher), the bubbles read as filled (dashed when unclear),
// fill-in text with its confidence. The layout's millimetres are carried to the image's pixels by
// the page transform the engine found; `crop` shows one question's region only (by-question view).
import { useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { ReviewItem, ViewPage, ViewRect } from '../../dataProvider/correct';

interface Point {
  x: number;
  y: number;
}

/** Layout units -> image pixels: the page transform, or a plain scale for results without one. */
function projector(page: ViewPage, natural: { w: number; h: number }): (p: Point) => Point {
  const h = page.h;
  if (h && h.length === 9) {
    return ({ x, y }) => {
      const w = h[6]! * x + h[7]! * y + 1;
      return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w };
    };
  }
  if (page.size) {
    const sx = natural.w / page.size.w;
    const sy = natural.h / page.size.h;
    return ({ x, y }) => ({ x: x * sx, y: y * sy });
  }
  return (p) => p;
}

const corners = (r: ViewRect): Point[] => [
  { x: r.x, y: r.y },
  { x: r.x + r.w, y: r.y },
  { x: r.x + r.w, y: r.y + r.h },
  { x: r.x, y: r.y + r.h },
];

/** The status of an item as the teacher sees it: points given, or the machine's verdict. */
export function itemVerdict(item: ReviewItem, reviewed: number | undefined): 'right' | 'wrong' | 'partial' | 'flagged' | 'unscored' {
  if (reviewed === undefined && item.needsReview) return 'flagged';
  const points = reviewed ?? item.score;
  if (points === null || item.max === null) return 'unscored';
  if (points >= item.max) return 'right';
  return points <= 0 ? 'wrong' : 'partial';
}

const CROP_HEIGHT = 160;
const COLOR = { right: '#2e7d32', wrong: '#d32f2f', partial: '#ed6c02', flagged: '#ed6c02', unscored: '#1a4fb4' };
const MARK = { right: '✓', wrong: '✗', partial: '½', flagged: '?', unscored: '' };

/**
 * The image of a file, fetched with the session (an <img> cannot send it) and measured, once per
 * file for the session: the student and question views show the same scans over and over.
 */
export function useScanImage(fileId: number | null) {
  const api = useDataProvider<AppDataProvider>();
  const image = useQuery({
    queryKey: ['correctFileImage', fileId],
    queryFn: async () => {
      const blob = await api.correctFile(fileId!);
      if (!blob.type.startsWith('image/')) return null;
      const url = URL.createObjectURL(blob);
      const natural = await new Promise<{ w: number; h: number } | null>((resolve) => {
        const img = new Image();
        img.onload = () => resolve({ w: img.naturalWidth, h: img.naturalHeight });
        img.onerror = () => resolve(null);
        img.src = url;
      });
      return natural ? { url, natural } : null;
    },
    enabled: fileId !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return { url: image.data?.url ?? null, natural: image.data?.natural ?? null, failed: image.isError || image.data === null };
}

export interface OverlayProps {
  page: ViewPage;
  items: ReviewItem[];
  review: Record<string, number>;
  selectedNo?: number | null;
  /** Show only these questions' regions (with a margin), scaled to the width; the whole page without. */
  crop?: number[];
  /** The crop's height at most, in px. */
  cropHeight?: number;
  onSelect?: (no: number) => void;
  label: string;
}

export function ScanOverlay({ page, items, review, selectedNo, crop, cropHeight = CROP_HEIGHT, onSelect, label }: OverlayProps) {
  const { url, natural, failed } = useScanImage(page.fileId);
  if (page.fileId === null || failed) {
    return (
      <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, textAlign: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          原图无法显示
        </Typography>
      </Box>
    );
  }
  if (!url || !natural) return <Skeleton variant="rectangular" sx={{ width: '100%', height: crop ? 80 : 400 }} />;
  const project = projector(page, natural);
  const poly = (r: ViewRect) => corners(r).map(project);
  // Line widths and text sizes follow the image's resolution, so they read the same on any scan.
  const pageUnit = Math.max(natural.w, natural.h) / 1000;
  let box = { x: 0, y: 0, w: natural.w, h: natural.h };
  if (crop) {
    const pts = page.regions.filter((r) => crop.includes(r.no)).flatMap((r) => poly(r.rect));
    if (pts.length) {
      const pad = (crop.length > 1 ? 24 : 12) * pageUnit;
      const x = Math.max(0, Math.min(...pts.map((p) => p.x)) - pad);
      const y = Math.max(0, Math.min(...pts.map((p) => p.y)) - pad);
      // Room on the right for the ✓/✗ drawn beside the region.
      const w = Math.min(natural.w, Math.max(...pts.map((p) => p.x)) + 30 * pageUnit) - x;
      const h = Math.min(natural.h, Math.max(...pts.map((p) => p.y)) + pad) - y;
      box = { x, y, w, h };
    }
  }
  // The element takes the crop's proportions, so nothing beyond the crop shows; a crop is at most CROP_HEIGHT px high.
  const maxWidth = crop && box.w < natural.w ? `${Math.round((cropHeight * box.w) / box.h)}px` : undefined;
  // Lines and marks keep their size on screen when a small crop is shown large.
  const unit = Math.min(pageUnit, Math.max(box.w, box.h) / 500);
  const itemOf = (no: number) => items.find((i) => i.no === no);
  return (
    <Box
      component="svg"
      viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
      role="img"
      aria-label={label}
      data-testid="scan-overlay"
      sx={{ display: 'block', width: '100%', maxWidth, mx: 'auto', height: 'auto', aspectRatio: `${box.w} / ${box.h}`, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
    >
      <image href={url} x={0} y={0} width={natural.w} height={natural.h} />
      {page.regions.map((r, i) => {
        const item = itemOf(r.no);
        // A single question's crop draws that question only; its neighbours show as the scan.
        if (!item || (crop?.length === 1 && !crop.includes(r.no))) return null;
        const verdict = itemVerdict(item, review[String(r.no)]);
        const pts = poly(r.rect);
        const selected = selectedNo === r.no;
        const right = pts.reduce((a, b) => (b.x > a.x ? b : a));
        return (
          <g
            key={`${r.no}-${i}`}
            data-testid="overlay-region"
            data-no={r.no}
            data-verdict={verdict}
            onClick={onSelect ? () => onSelect(r.no) : undefined}
            style={{ cursor: onSelect ? 'pointer' : undefined }}
          >
            <polygon
              points={pts.map((p) => `${p.x},${p.y}`).join(' ')}
              fill={selected ? 'rgba(26,79,180,0.08)' : 'transparent'}
              stroke={selected ? '#1a4fb4' : COLOR[verdict]}
              strokeWidth={(selected ? 3 : 1.6) * unit}
              strokeDasharray={verdict === 'flagged' ? `${6 * unit} ${4 * unit}` : undefined}
            />
            {MARK[verdict] && (
              <text x={right.x + 3 * unit} y={pts[0]!.y + 16 * unit} fontSize={20 * unit} fontWeight={700} fill={COLOR[verdict]}>
                {MARK[verdict]}
              </text>
            )}
          </g>
        );
      })}
      {page.bubbles
        .filter((b) => b.state !== 'empty' && (crop?.length !== 1 || crop.includes(b.no)))
        .map((b) => {
          const c = project({ x: b.cx, y: b.cy });
          const ex = project({ x: b.cx + b.rx, y: b.cy });
          const ey = project({ x: b.cx, y: b.cy + b.ry });
          const rx = Math.hypot(ex.x - c.x, ex.y - c.y) + 2 * unit;
          const ry = Math.hypot(ey.x - c.x, ey.y - c.y) + 2 * unit;
          const unclear = b.state !== 'marked';
          return (
            <ellipse
              key={`${b.no}-${b.label}`}
              data-testid="overlay-bubble"
              data-no={b.no}
              data-label={b.label}
              data-state={b.state}
              cx={c.x}
              cy={c.y}
              rx={rx}
              ry={ry}
              fill="none"
              stroke={unclear ? '#ed6c02' : '#1a4fb4'}
              strokeWidth={2.2 * unit}
              strokeDasharray={unclear ? `${3 * unit} ${2 * unit}` : undefined}
            />
          );
        })}
      {page.fills
        .filter((f) => !f.blank)
        .map((f) => {
          const p = project({ x: f.rect.x, y: f.rect.y });
          return (
            <text key={`${f.no}-${f.box}`} data-testid="overlay-fill" x={p.x} y={p.y - 3 * unit} fontSize={13 * unit} fill={f.confidence < 0.8 ? '#ed6c02' : '#1a4fb4'}>
              {`${f.text}（${Math.round(f.confidence * 100)}%）`}
            </text>
          );
        })}
    </Box>
  );
}

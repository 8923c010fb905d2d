// A student's scan or photo with what grading read drawn over it: each question's region (✓ right,
// ✗ wrong, orange while it waits for the teacher), the bubbles read as filled (dashed when unclear),
// fill-in text with its confidence. The layout's millimetres are carried to the image's pixels by
// the page transform the engine found; `crop` shows one question's region only (by-question view).
// `zoomable` adds pinch, drag, ctrl+wheel and buttons to zoom, and a tap on a question zooms to it.
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { HttpError, useDataProvider } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ZoomInOutlined from '@mui/icons-material/ZoomInOutlined';
import ZoomOutOutlined from '@mui/icons-material/ZoomOutOutlined';
import FitScreenOutlined from '@mui/icons-material/FitScreenOutlined';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { AppDataProvider } from '../../dataProvider';
import type { ReviewItem, ViewPage, ViewRect } from '../../dataProvider/correct';
import { fitTo, panBy, zoomAt, zoomOf, type ViewBox } from './scanZoom';
import type { Annotation } from '../../domain/marking';
import { applyTransform, fractionOf, invertTransform, PenMarks } from './penMarks';

interface Point {
  x: number;
  y: number;
}

/** Image pixels -> layout units: the inverse of `projector`, for where the pen touched. */
function unprojector(page: ViewPage, natural: { w: number; h: number }): (p: Point) => Point {
  const inverse = page.h && page.h.length === 9 ? invertTransform(page.h) : null;
  if (inverse) return (p) => applyTransform(inverse, p);
  if (page.size) {
    const sx = natural.w / page.size.w;
    const sy = natural.h / page.size.h;
    return ({ x, y }) => ({ x: x / sx, y: y / sy });
  }
  return (p) => p;
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
const isClientError = (error: unknown) => error instanceof HttpError && error.status >= 400 && error.status < 500;

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
    // A school's Wi-Fi or a busy server drops a download now and then; a scan that failed once would
    // otherwise read 原图无法显示 until the page is reloaded. A refused file (4xx) is not retried.
    retry: (count, error) => count < 2 && !isClientError(error),
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
  /** Pinch, drag, ctrl+wheel and buttons zoom the scan; a tap on a question zooms to it. */
  zoomable?: boolean;
  /** The markers' pens per question number, drawn over their regions. */
  annotations?: Record<string, Annotation[]>;
  /** A pen is in hand: a stroke on a question gives its start and end as fractions of the region. */
  onPen?: (no: number, from: Point, to: Point) => void;
}

interface Gesture {
  pointers: Map<number, { x: number; y: number }>;
  /** The last pointerdown's kind: a tap zooms to its question, a mouse click only selects it. */
  kind: string;
  /** The pointer moved since it went down: what follows is a drag or a pinch, not a tap. */
  moved: boolean;
  /** The view last set, ahead of the one drawn. */
  view: ViewBox | null;
}

/** The zoomed view of one base box (the page or the crop); a new base starts unzoomed. */
function useZoom(base: ViewBox | null) {
  const key = base ? `${base.x},${base.y},${base.w},${base.h}` : '';
  const [state, setState] = useState<{ key: string; view: ViewBox } | null>(null);
  const view = base && state?.key === key ? state.view : base;
  const set = (next: ViewBox | null) => setState(next ? { key, view: next } : null);
  return { view, set };
}

export function ScanOverlay({ page, items, review, selectedNo, crop, cropHeight = CROP_HEIGHT, onSelect, label, zoomable = false, annotations, onPen }: OverlayProps) {
  const { url, natural, failed } = useScanImage(page.fileId);
  const box = natural ? baseBox(page, natural, crop) : null;
  const zoom = useZoom(box);
  const svg = useRef<SVGSVGElement | null>(null);
  const gesture = useRef<Gesture>({ pointers: new Map(), kind: 'mouse', moved: false, view: null });
  const stroke = useRef<{ no: number; from: Point } | null>(null);
  // A trackpad pinch arrives as ctrl+wheel; React's wheel listener is passive and cannot keep the
  // page itself from zooming, so this one is added by hand. A plain wheel still scrolls the page.
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  const boxRef = useRef(box);
  boxRef.current = box;
  useEffect(() => {
    const el = svg.current;
    if (!zoomable || !el) return;
    const onWheel = (e: WheelEvent) => {
      const { view, set } = zoomRef.current;
      const base = boxRef.current;
      if (!e.ctrlKey || !view || !base) return;
      e.preventDefault();
      const r = el.getBoundingClientRect();
      set(zoomAt(view, base, Math.exp(-e.deltaY / 200), (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomable, url]);
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
  if (!box) return null;
  // The element takes the crop's proportions, so nothing beyond the crop shows; a crop is at most CROP_HEIGHT px high.
  const maxWidth = crop && box.w < natural.w ? `${Math.round((cropHeight * box.w) / box.h)}px` : undefined;
  const view = zoom.view ?? box;
  const zoomed = zoomOf(view, box) > 1.001;
  // Lines and marks keep their size on screen when a small crop is shown large or the scan is zoomed.
  const unit = Math.min(pageUnit, Math.max(view.w, view.h) / 500);
  const itemOf = (no: number) => items.find((i) => i.no === no);

  // Pinch with two fingers, drag with one once zoomed; the move of a tap stays under 5 px. Several
  // moves can arrive before React draws again, so each starts from the last view set, not the drawn one.
  const g = gesture.current;
  g.view = view;
  const setView = (next: ViewBox) => {
    g.view = next;
    zoom.set(next);
  };
  const down = (e: ReactPointerEvent) => {
    g.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    g.kind = e.pointerType;
    if (g.pointers.size === 1) g.moved = false;
  };
  const move = (e: ReactPointerEvent) => {
    const current = g.view ?? view;
    const last = g.pointers.get(e.pointerId);
    const el = svg.current;
    if (!last || !el) return;
    const r = el.getBoundingClientRect();
    const now = { x: e.clientX, y: e.clientY };
    if (g.pointers.size >= 2) {
      const [a, b] = [...g.pointers.entries()].map(([id, p]) => (id === e.pointerId ? { before: p, after: now } : { before: p, after: p }));
      const dist = (p: { x: number; y: number }, q: { x: number; y: number }) => Math.hypot(p.x - q.x, p.y - q.y) || 1;
      const factor = dist(a!.after, b!.after) / dist(a!.before, b!.before);
      const mid = { x: (a!.after.x + b!.after.x) / 2, y: (a!.after.y + b!.after.y) / 2 };
      setView(zoomAt(current, box, factor, (mid.x - r.left) / r.width, (mid.y - r.top) / r.height));
      g.moved = true;
    } else if (zoomOf(current, box) > 1.001 && (g.moved || Math.hypot(now.x - last.x, now.y - last.y) > 4)) {
      setView(panBy(current, box, now.x - last.x, now.y - last.y, r.width));
      g.moved = true;
    } else if (!zoomed) {
      return; // an unzoomed scan lets a vertical swipe scroll the page (touch-action: pan-y)
    }
    g.pointers.set(e.pointerId, now);
  };
  const up = (e: ReactPointerEvent) => {
    g.pointers.delete(e.pointerId);
  };
  /** A tap (or click) on a question: select it; a finger's tap also zooms to it, or back out. */
  const tap = (no: number, pts: Point[]) => {
    if (g.moved) return;
    onSelect?.(no);
    if (!zoomable || g.kind !== 'touch') return;
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const region = { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
    const target = fitTo(region, box);
    zoom.set(zoomed && selectedNo === no ? null : target);
  };

  // The pen: where a stroke starts and ends on the scan, in the layout, then in its question's region.
  const unproject = unprojector(page, natural);
  const layoutPoint = (e: ReactPointerEvent): Point | null => {
    const matrix = svg.current?.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
    return unproject({ x: p.x, y: p.y });
  };
  const regionAt = (p: Point) =>
    page.regions.find((r) => (!crop || crop.includes(r.no)) && p.x >= r.rect.x && p.x <= r.rect.x + r.rect.w && p.y >= r.rect.y && p.y <= r.rect.y + r.rect.h) ??
    (crop?.length === 1 ? page.regions.find((r) => r.no === crop[0]) : undefined);
  const penDown = (e: ReactPointerEvent) => {
    const p = layoutPoint(e);
    const region = p && regionAt(p);
    stroke.current = p && region ? { no: region.no, from: fractionOf(region.rect, p) } : null;
  };
  const penUp = (e: ReactPointerEvent) => {
    const start = stroke.current;
    stroke.current = null;
    const p = layoutPoint(e);
    const region = start && page.regions.find((r) => r.no === start.no);
    if (start && p && region && onPen) onPen(start.no, start.from, fractionOf(region.rect, p));
  };

  const image = (
    <Box
      component="svg"
      ref={svg}
      viewBox={`${view.x} ${view.y} ${view.w} ${view.h}`}
      role="img"
      aria-label={label}
      data-testid="scan-overlay"
      data-zoom={zoomOf(view, box).toFixed(2)}
      onPointerDown={onPen ? penDown : zoomable ? down : undefined}
      onPointerMove={!onPen && zoomable ? move : undefined}
      onPointerUp={onPen ? penUp : zoomable ? up : undefined}
      onPointerCancel={zoomable ? up : undefined}
      onPointerLeave={zoomable ? up : undefined}
      sx={{
        display: 'block', width: '100%', maxWidth, mx: 'auto', height: 'auto', aspectRatio: `${box.w} / ${box.h}`, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff',
        // Zoomed, a one-finger drag moves the scan; unzoomed, it scrolls the page as anywhere else.
        touchAction: onPen ? 'none' : zoomable ? (zoomed ? 'none' : 'pan-y') : undefined,
        cursor: onPen ? 'crosshair' : zoomed ? 'grab' : undefined,
        userSelect: 'none',
      }}
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
            onClick={onSelect || zoomable ? () => tap(r.no, pts) : undefined}
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
      {annotations &&
        page.regions
          .filter((r) => annotations[String(r.no)]?.length && (crop?.length !== 1 || crop.includes(r.no)))
          .map((r) => <PenMarks key={`pen-${r.no}`} no={r.no} marks={annotations[String(r.no)]!} rect={r.rect} project={project} unit={unit} />)}
    </Box>
  );
  if (!zoomable) return image;
  const step = (factor: number) => zoom.set(zoomAt(view, box, factor));
  return (
    <Box sx={{ position: 'relative', maxWidth, mx: 'auto' }}>
      {image}
      {/* Buttons for a mouse without a wheel and for those who do not know the gestures. */}
      <Box sx={{ position: 'absolute', top: 4, right: 4, display: 'flex', bgcolor: 'rgba(255,255,255,0.9)', borderRadius: 1, boxShadow: 1 }}>
        <Tooltip title="放大">
          <IconButton size="small" aria-label="放大" onClick={() => step(1.5)}>
            <ZoomInOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="缩小">
          <span>
            <IconButton size="small" aria-label="缩小" disabled={!zoomed} onClick={() => step(1 / 1.5)}>
              <ZoomOutOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="整页显示">
          <span>
            <IconButton size="small" aria-label="整页显示" disabled={!zoomed} onClick={() => zoom.set(null)}>
              <FitScreenOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}

/** The part of the image shown unzoomed: the whole page, or the crop around the given questions. */
function baseBox(page: ViewPage, natural: { w: number; h: number }, crop: number[] | undefined): ViewBox {
  const box = { x: 0, y: 0, w: natural.w, h: natural.h };
  if (!crop) return box;
  const project = projector(page, natural);
  const pts = page.regions.filter((r) => crop.includes(r.no)).flatMap((r) => corners(r.rect).map(project));
  if (!pts.length) return box;
  const pageUnit = Math.max(natural.w, natural.h) / 1000;
  const pad = (crop.length > 1 ? 24 : 12) * pageUnit;
  const x = Math.max(0, Math.min(...pts.map((p) => p.x)) - pad);
  const y = Math.max(0, Math.min(...pts.map((p) => p.y)) - pad);
  // Room on the right for the ✓/✗ drawn beside the region.
  const w = Math.min(natural.w, Math.max(...pts.map((p) => p.x)) + 30 * pageUnit) - x;
  const h = Math.min(natural.h, Math.max(...pts.map((p) => p.y)) + pad) - y;
  return { x, y, w, h };
}

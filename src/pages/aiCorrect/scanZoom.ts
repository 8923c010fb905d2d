// Zoom and pan of a scan, as the SVG's viewBox: the scan stays one element whose box on screen never
// changes size, and zooming shows a smaller part of the image in it. A 210 px wide scan on a phone
// cannot be read otherwise; pinch, drag, the buttons and a tap on a question all move this one box.

export interface ViewBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Never closer than a tenth of the base box: past that a scan shows only its pixels. */
export const MAX_ZOOM = 10;

/** Keep the view inside the base box and its zoom between 1 and MAX_ZOOM, same proportions as the base. */
export function clampView(view: ViewBox, base: ViewBox): ViewBox {
  const w = Math.min(base.w, Math.max(base.w / MAX_ZOOM, view.w));
  const h = (w * base.h) / base.w;
  // Scaling about the view's centre, so a clamp of the size does not jump the view aside.
  const cx = view.x + view.w / 2;
  const cy = view.y + view.h / 2;
  const x = Math.min(base.x + base.w - w, Math.max(base.x, cx - w / 2));
  const y = Math.min(base.y + base.h - h, Math.max(base.y, cy - h / 2));
  return { x, y, w, h };
}

/**
 * Zoom by `factor` (> 1 closer) keeping the point at (fx, fy) — fractions of the element's width and
 * height, 0..1 — under the finger or the pointer.
 */
export function zoomAt(view: ViewBox, base: ViewBox, factor: number, fx = 0.5, fy = 0.5): ViewBox {
  const w = Math.min(base.w, Math.max(base.w / MAX_ZOOM, view.w / factor));
  const h = (w * base.h) / base.w;
  const px = view.x + fx * view.w;
  const py = view.y + fy * view.h;
  const next = { x: px - fx * w, y: py - fy * h, w, h };
  return clampView(next, base);
}

/** Move the view by a drag of (dx, dy) screen pixels on an element `elementWidth` px wide. */
export function panBy(view: ViewBox, base: ViewBox, dx: number, dy: number, elementWidth: number): ViewBox {
  const unitsPerPx = view.w / Math.max(1, elementWidth);
  return clampView({ ...view, x: view.x - dx * unitsPerPx, y: view.y - dy * unitsPerPx }, base);
}

/** The view that shows `box` whole with a margin, in the base's proportions. */
export function fitTo(box: ViewBox, base: ViewBox, margin = 0.15): ViewBox {
  const ratio = base.w / base.h;
  let w = box.w * (1 + 2 * margin);
  let h = box.h * (1 + 2 * margin);
  if (w / h < ratio) w = h * ratio;
  else h = w / ratio;
  return clampView({ x: box.x + box.w / 2 - w / 2, y: box.y + box.h / 2 - h / 2, w, h }, base);
}

export const zoomOf = (view: ViewBox, base: ViewBox) => base.w / view.w;

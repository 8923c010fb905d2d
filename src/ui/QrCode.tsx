// A QR code drawn as one SVG path from the `qrcode` package's module matrix: crisp at any size,
// no canvas and no data: URL.
import { useMemo } from 'react';
import QRCode from 'qrcode';

/** `label` says what the code opens, for screen readers (a payment, a family page). */
export function QrCode({ text, size = 200, label = '支付二维码' }: { text: string; size?: number; label?: string }) {
  const { path, count } = useMemo(() => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const parts: string[] = [];
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) parts.push(`M${col + 4} ${row + 4}h1v1h-1z`);
    }
    return { path: parts.join(''), count: modules.size + 8 };
  }, [text]);
  return (
    <svg width={size} height={size} viewBox={`0 0 ${count} ${count}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={count} height={count} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

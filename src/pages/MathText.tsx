// Text with LaTeX between $…$ (stems, options, 解析), rendered with KaTeX; plain parts stay React text.
import katex from 'katex';
import 'katex/dist/katex.min.css';

export function MathText({ text }: { text: string }) {
  const parts = text.split(/(\$[^$]+\$)/g);
  return (
    <span style={{ overflowWrap: 'anywhere' }}>
      {parts.map((part, i) =>
        part.length > 2 && part.startsWith('$') && part.endsWith('$') ? (
          <span key={i} dangerouslySetInnerHTML={{ __html: katex.renderToString(part.slice(1, -1), { throwOnError: false }) }} />
        ) : (
          <span key={i}>{part}</span>
        ),
      )}
    </span>
  );
}

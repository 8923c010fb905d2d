// Upstream fontkit 1.9 ships no types. pdf-lib only needs its `create`, which matches the
// Fontkit interface pdf-lib declares.
declare module 'fontkit' {
  import type { Fontkit } from 'pdf-lib/cjs/types/fontkit';
  const fontkit: Fontkit;
  export default fontkit;
}

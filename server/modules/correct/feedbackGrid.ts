// The crop's grid of region points on a feedback PDF: GRID × GRID cells (GRID + 1 points a side).
// Its own module so the API, which samples the grid, does not load the PDF module (pdf-lib, fontkit)
// that draws it.
export const GRID = 8;

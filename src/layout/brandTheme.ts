// Colours, shape and CJK-first fonts shared by the product and the sign-in app.
export const FONT_FAMILY = ['"PingFang SC"', '"Microsoft YaHei"', '"Noto Sans CJK SC"', '"Noto Sans SC"', 'Roboto', 'Helvetica', 'Arial', 'sans-serif'].join(',');

export const brand = {
  palette: {
    primary: { main: '#2f6fed' },
    secondary: { main: '#13a8a8' },
    background: { default: '#f4f6fa', paper: '#ffffff' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: FONT_FAMILY },
  components: {
    // A teacher who asks her system for less motion (a vestibular disorder, a slow classroom PC)
    // gets none: ripples, fades, slides and spinners end at once instead of playing.
    MuiCssBaseline: {
      styleOverrides: {
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
  },
} as const;

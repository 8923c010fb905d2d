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
} as const;

// react-admin's default theme with our brand and MUI's zh-CN component texts.
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { zhCN } from '@mui/material/locale';
import { brand } from './brandTheme';

export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: { ...defaultTheme.palette, ...brand.palette },
  shape: brand.shape,
  typography: { ...defaultTheme.typography, ...brand.typography },
  components: { ...defaultTheme.components, ...zhCN.components },
};

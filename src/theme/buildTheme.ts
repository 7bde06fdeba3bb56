import { createTheme, type Theme } from '@mui/material/styles';
import { MOBILE_BREAKPOINT_PX } from '../domain/constants';
import { paletteFor, type Palette as ConsolePalette } from './palettes';

declare module '@mui/material/styles' {
  interface Theme {
    console: ConsolePalette;
  }
  interface ThemeOptions {
    console?: ConsolePalette;
  }
}

/**
 * The MUI theme from a preset palette. md is the mobile breakpoint of SPEC section 9 (1024 px),
 * so react-admin's layout turns to its mobile drawer there. Size default "mini": small inputs.
 */
export function buildTheme(primary: string, size = 'mini'): Theme {
  const palette = paletteFor(primary);
  // Size (SPEC: default "mini"): mini = small controls and a 13 px base font; small = small
  // controls, 14 px; medium = MUI's medium controls, 14 px.
  const control = size === 'medium' ? 'medium' : 'small';
  return createTheme({
    console: palette,
    breakpoints: { values: { xs: 0, sm: 600, md: MOBILE_BREAKPOINT_PX, lg: 1280, xl: 1600 } },
    palette: { primary: { main: palette.primary }, secondary: { main: palette.menuBg }, background: { default: '#f4f6f9' } },
    typography: { fontSize: size === 'mini' ? 13 : 14, fontFamily: '-apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif' },
    shape: { borderRadius: 4 },
    components: {
      MuiTextField: { defaultProps: { size: control, variant: 'outlined' } },
      MuiFormControl: { defaultProps: { size: control } },
      MuiButton: { defaultProps: { size: control } },
      MuiIconButton: { defaultProps: { size: control } },
      MuiTable: { defaultProps: { size: control } },
      MuiTableCell: { styleOverrides: { head: { backgroundColor: palette.tableHeader, fontWeight: 600 } } },
    },
  });
}

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
export function buildTheme(primary: string): Theme {
  const palette = paletteFor(primary);
  return createTheme({
    console: palette,
    breakpoints: { values: { xs: 0, sm: 600, md: MOBILE_BREAKPOINT_PX, lg: 1280, xl: 1600 } },
    palette: { primary: { main: palette.primary }, secondary: { main: palette.menuBg }, background: { default: '#f4f6f9' } },
    typography: { fontSize: 13, fontFamily: '-apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif' },
    shape: { borderRadius: 4 },
    components: {
      MuiTextField: { defaultProps: { size: 'small', variant: 'outlined' } },
      MuiFormControl: { defaultProps: { size: 'small' } },
      MuiButton: { defaultProps: { size: 'small' } },
      MuiIconButton: { defaultProps: { size: 'small' } },
      MuiTable: { defaultProps: { size: 'small' } },
      MuiTableCell: { styleOverrides: { head: { backgroundColor: palette.tableHeader, fontWeight: 600 } } },
    },
  });
}

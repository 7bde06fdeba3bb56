import { createTheme, type Theme } from '@mui/material/styles';
import { DEFAULT_LANGUAGE, MOBILE_BREAKPOINT_PX, type Language } from '../domain/constants';
import { muiLocale } from '../i18n/muiLocale';
import { paletteFor, type Palette as ConsolePalette } from './palettes';

declare module '@mui/material/styles' {
  interface Theme {
    console: ConsolePalette;
  }
  interface ThemeOptions {
    console?: ConsolePalette;
  }
}

type NamedCheckbox = { 'aria-label'?: string; inputProps?: Record<string, unknown> };
const checkboxInputName = (ownerState: NamedCheckbox) => ({
  ...ownerState.inputProps,
  ...(ownerState['aria-label'] ? { 'aria-label': ownerState['aria-label'] } : {}),
});
const checkboxRootName = (ownerState: NamedCheckbox) => (ownerState['aria-label'] ? { 'aria-label': undefined } : {});

/**
 * The MUI theme from a preset palette. md is the mobile breakpoint of docs/requirements.md §9 (1024 px),
 * so react-admin's layout turns to its mobile drawer there. Size default "mini": small inputs.
 * MUI's own component texts (pagination, autocomplete...) follow the language (i18n/muiLocale).
 */
export function buildTheme(primary: string, size = 'mini', language: Language = DEFAULT_LANGUAGE): Theme {
  const palette = paletteFor(primary);
  // Size (default "mini", docs/requirements.md §9): mini = small controls and a 13 px base font; small = small
  // controls, 14 px; medium = MUI's medium controls, 14 px.
  const control = size === 'medium' ? 'medium' : 'small';
  return createTheme(
    {
      console: palette,
      breakpoints: { values: { xs: 0, sm: 600, md: MOBILE_BREAKPOINT_PX, lg: 1280, xl: 1600 } },
      // info and warning darker than MUI's (#0288d1, #ed6c02): their chips and texts reach WCAG AA
      // contrast (4.5:1) on white, as filled and as outlined chips.
      palette: {
        primary: { main: palette.primary },
        secondary: { main: palette.menuBg },
        background: { default: '#f4f6f9' },
        info: { main: '#0267a8', dark: '#01579b', light: '#4fa3d8', contrastText: '#fff' },
        warning: { main: '#b45309', dark: '#8a3f06', light: '#f59e0b', contrastText: '#fff' },
      },
      typography: {
        fontSize: size === 'mini' ? 13 : 14,
        fontFamily: '-apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif',
      },
      shape: { borderRadius: 4 },
      components: {
        MuiTextField: { defaultProps: { size: control, variant: 'outlined' } },
        MuiFormControl: { defaultProps: { size: control } },
        MuiButton: { defaultProps: { size: control } },
        MuiIconButton: { defaultProps: { size: control } },
        MuiTable: { defaultProps: { size: control } },
        // A checkbox named with aria-label (react-admin's DataTable row checkbox) gets the name on its
        // input, where assistive technology reads it; MUI puts it on the wrapping span, which has no
        // role (axe: label, aria-prohibited-attr).
        MuiCheckbox: { defaultProps: { slotProps: { input: checkboxInputName, root: checkboxRootName } } },
        MuiTableCell: { styleOverrides: { head: { backgroundColor: palette.tableHeader, fontWeight: 600 } } },
      },
    },
    ...muiLocale(language),
  );
}

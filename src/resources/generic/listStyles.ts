import type { Theme } from '@mui/material/styles';

/** react-admin's layout grows to fit its content; a zero base width keeps a wide table scrolling inside the page. */
export const LIST_SX = { '& .RaList-main': { minWidth: 0, width: 0 } };

/** Every console table: scrolls sideways, cells on one line, the theme's header colour. */
export const DATATABLE_SX = {
  overflowX: 'auto',
  '& td, & th': { whiteSpace: 'nowrap' },
  '& .RaDataTable-headerCell': { bgcolor: (t: Theme) => t.console.tableHeader },
};

/** The page sizes every list offers. */
export const PAGE_SIZES = [10, 20, 50, 100];

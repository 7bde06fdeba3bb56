import type { Theme } from '@mui/material/styles';

/**
 * The filter bar: every input (search box, select, reference, date, number) on one line, the same
 * height and baseline. react-admin gives the search box no bottom margin and the others MUI's dense
 * one (8 px above, 4 below), so a select sat 4 px above the search box; the remove-filter button is
 * centred on the box. On a phone each filter takes the whole row.
 */
export const FILTER_BAR_SX = {
  '& .filter-field .MuiFormControl-root': { mt: 1, mb: 0 },
  '& .filter-field .hide-filter': { mb: '3px' },
  '@media (max-width: 599.95px)': {
    '& .filter-field': { flex: '1 1 100%', minWidth: 0 },
    '& .filter-field > .MuiFormControl-root, & .filter-field > .MuiAutocomplete-root': { flex: '1 1 auto', minWidth: 0 },
  },
};

/** react-admin's layout grows to fit its content; a zero base width keeps a wide table scrolling inside the page. */
export const LIST_SX = { '& .RaList-main': { minWidth: 0, width: 0 }, ...FILTER_BAR_SX };

/**
 * The row-actions column stays in view: a last column without a source (react-admin names its
 * cells `column-undefined`; every console list puts its actions there) sticks to the right edge
 * of the table's card while the other columns scroll under it. Shared with the hand-made tables
 * (status monitor) through STICKY_ACTIONS_CELL_SX.
 */
export const STICKY_ACTIONS_CELL_SX = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: (t: Theme) => `inset 1px 0 0 ${t.palette.divider}`,
} as const;

/** The last column, when it holds row actions (no source), sticks to the table's right edge. */
export const STICKY_ACTIONS_COLUMN_SX = {
  '& td.column-undefined:last-of-type': { ...STICKY_ACTIONS_CELL_SX, px: 0.5 },
  // above the other header cells (react-admin's sticky header row sits at zIndex 2)
  '& th.column-undefined:last-of-type': { ...STICKY_ACTIONS_CELL_SX, zIndex: 3, bgcolor: (t: Theme) => t.console.tableHeader },
  // A selected or hovered row keeps its tint under the sticky cell.
  '& tr.RaDataTable-selectedRow td.column-undefined:last-of-type, & tr:hover td.column-undefined:last-of-type': {
    backgroundImage: 'linear-gradient(rgba(0,0,0,0.04), rgba(0,0,0,0.04))',
  },
};

/**
 * Every console table, at any width and in both languages: fits its card (scrolls sideways
 * inside it when the columns cannot all fit), headers and short values on one line, long text
 * wrapped, row actions always visible in a sticky last column (from 600 px up),
 * the theme's header colour.
 */
export const DATATABLE_SX = {
  // The table scrolls inside its wrapper, not the whole DataTable: react-admin's bulk-actions
  // toolbar sits above the table and an overflow on the root would clip it away.
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  maxWidth: '100%',
  // Headers wrap between words only ("Device / number"); the sort arrow, which keeps its room
  // even when hidden, is narrower than MUI's: together about 100 px for a twelve-column list.
  '& th': { whiteSpace: 'normal', overflowWrap: 'normal' },
  '& th .MuiTableSortLabel-icon': { fontSize: 16, ml: 0.25, mr: 0 },
  '& td': { whiteSpace: 'nowrap' },
  // The text of a value cell wraps when the columns do not all fit (a long word breaks rather
  // than overflow); the table only scrolls once every column is at its narrowest.
  '& td.RaDataTable-rowCell:not(.column-undefined)': { whiteSpace: 'normal', overflowWrap: 'break-word', minWidth: 64 },
  '& td.RaDataTable-rowCell:not(.column-undefined) .MuiChip-root': { maxWidth: '100%' },
  // Denser than MUI's 16 px side padding: a twelve-column list fits 1440 px in both languages.
  '& td:not(.MuiTableCell-paddingCheckbox), & th:not(.MuiTableCell-paddingCheckbox)': { px: 1 },
  '& .RaDataTable-headerCell': { bgcolor: (t: Theme) => t.console.tableHeader },
  // From 600 px up: on a phone, labelled actions would cover the row; there the table scrolls.
  '@media (min-width: 600px)': STICKY_ACTIONS_COLUMN_SX,
};

/**
 * A react-admin button shown as its icon only (a row action in a crowded table): the label stays
 * its accessible name (react-admin sets aria-label) and its tooltip (pass `title`).
 */
export const ICON_ONLY_BUTTON_SX = {
  minWidth: 0,
  px: 0.5,
  fontSize: 0,
  '& .MuiButton-startIcon': { m: 0 },
  '& .MuiButton-startIcon > *:nth-of-type(1)': { fontSize: 20 },
};

/** The page sizes every list offers. */
export const PAGE_SIZES = [10, 20, 50, 100];

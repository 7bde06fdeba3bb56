import type { ThemeOptions } from '@mui/material/styles';
import { enUS, zhCN } from '@mui/material/locale';
import type { Language } from '../domain/constants';

/**
 * The texts MUI's own components carry (pagination, autocomplete, alert, breadcrumbs, charts), in
 * the console's language. MUI's locale packs (zhCN, enUS) give most; this table adds what they
 * leave in English (the pagination's navigation name and page buttons, the charts' overlays) and
 * words the pagination the same way as react-admin's own (ra.navigation.*). buildTheme merges it
 * into the theme, which App re-builds when the language changes.
 */
type PageItem = 'page' | 'first' | 'last' | 'next' | 'previous' | string;

interface Texts {
  pagination: string;
  item: (type: PageItem, page: number | null, selected: boolean) => string;
  rowsPerPage: string;
  displayedRows: (p: { from: number; to: number; count: number }) => string;
  chartsLoading: string;
  chartsNoData: string;
}

const TEXTS: Record<Language, Texts> = {
  zh: {
    pagination: '分页导航',
    item: (type, page, selected) => {
      if (type === 'page') return selected ? `第 ${page} 页` : `转到第 ${page} 页`;
      return { first: '第一页', last: '最后一页', next: '下一页', previous: '上一页' }[type] ?? String(type);
    },
    rowsPerPage: '每页条数：',
    displayedRows: ({ from, to, count }) => (count !== -1 ? `${from}-${to}，共 ${count} 条` : `${from}-${to}，超过 ${to} 条`),
    chartsLoading: '加载中…',
    chartsNoData: '暂无数据',
  },
  en: {
    pagination: 'Pagination',
    item: (type, page, selected) => {
      if (type === 'page') return selected ? `Page ${page}` : `Go to page ${page}`;
      return `Go to ${type} page`;
    },
    rowsPerPage: 'Rows per page:',
    displayedRows: ({ from, to, count }) => (count !== -1 ? `${from}-${to} of ${count}` : `${from}-${to} of more than ${to}`),
    chartsLoading: 'Loading data…',
    chartsNoData: 'No data to display',
  },
};

/** MUI's pack for the language followed by the console's additions (later arguments of createTheme win). */
export function muiLocale(language: Language): ThemeOptions[] {
  const texts = TEXTS[language] ?? TEXTS.zh;
  const extra = {
    components: {
      MuiPagination: { defaultProps: { 'aria-label': texts.pagination, getItemAriaLabel: texts.item } },
      MuiTablePagination: {
        defaultProps: {
          labelRowsPerPage: texts.rowsPerPage,
          labelDisplayedRows: texts.displayedRows,
          getItemAriaLabel: (type: string) => texts.item(type, null, false),
        },
      },
      MuiChartsLocalizationProvider: { defaultProps: { localeText: { loading: texts.chartsLoading, noData: texts.chartsNoData } } },
    },
  } as ThemeOptions;
  return [language === 'en' ? enUS : zhCN, extra];
}

/** The language MUI's pack stands for (for tests and the document). */
export const muiLocaleName = (language: Language): 'zhCN' | 'enUS' => (language === 'en' ? 'enUS' : 'zhCN');

import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { zh } from '../../src/i18n/zh';
import { en } from '../../src/i18n/en';
import { domainMessages } from '../../src/domain/messages';
import { documentTitle } from '../../src/i18n/messages';
import { ConsoleI18nProvider } from '../../src/i18n/I18nContext';
import { LoginPage } from '../../src/pages/login/LoginPage';
import { setLanguage, restoreState } from '../../src/state/clientState';
import { ALL_PAGES, MENU } from '../../src/navigation/menu';
import Polyglot from 'node-polyglot';
import { ThemeProvider } from '@mui/material/styles';
import TablePagination from '@mui/material/TablePagination';
import Pagination from '@mui/material/Pagination';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { catalogueAction, formatMessage } from '../../src/api/catalogue';
import { ApiError } from '../../src/api/errors';
import { ErrorCode } from '../../src/domain/errorCodes';
import { PERMISSION_MODULES } from '../../src/domain/permissionGroups';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { RESOURCES, resourceMessages } from '../../src/resources';
import { builtKeys, definitionWordProblems, missingLabels } from './catalogues';

// The catalogues as react-admin reads them: the console's own with the words definitions bring (resources.<name>).
const zhKeys = builtKeys('zh');
const enKeys = builtKeys('en');

describe('the language tables', () => {
  it('have exactly the same keys in zh and en', () => {
    const onlyZh = Object.keys(zhKeys).filter((k) => !(k in enKeys));
    const onlyEn = Object.keys(enKeys).filter((k) => !(k in zhKeys));
    expect({ onlyZh, onlyEn }).toEqual({ onlyZh: [], onlyEn: [] });
  });

  it('have no empty string', () => {
    const empty = [...Object.entries(zhKeys), ...Object.entries(enKeys)].filter(([k, v]) => v === '' && !k.endsWith('boolean.null'));
    expect(empty).toEqual([]);
  });

  it('write zh plurals with %{smart_count} and never ||||', () => {
    expect(Object.entries(zhKeys).filter(([, v]) => v.includes('||||'))).toEqual([]);
    expect(zhKeys['ra.action.bulk_actions']).toContain('%{smart_count}');
  });

  it('include every domain message under its own key, in both languages', () => {
    for (const [key, text] of Object.entries(domainMessages.zh)) expect(zhKeys[key]).toBe(text);
    for (const [key, text] of Object.entries(domainMessages.en)) expect(enKeys[key]).toBe(text);
  });

  it('name every menu entry in both languages', () => {
    for (const entry of [...MENU, ...ALL_PAGES]) {
      expect(zhKeys[entry.titleKey], entry.titleKey).toBeTruthy();
      expect(enKeys[entry.titleKey], entry.titleKey).toBeTruthy();
    }
  });

  it("read the words resource definitions bring, as react-admin's provider has them", async () => {
    const withMessages = RESOURCES.filter((r) => r.messages);
    expect(withMessages.length).toBeGreaterThan(0);
    const provider = createI18nProvider('en', { zh: resourceMessages('zh'), en: resourceMessages('en') });
    for (const r of withMessages) {
      const key = `resources.${r.name}.name`;
      expect(enKeys[key], key).toBe(r.messages!.en.name);
      expect(zhKeys[key], key).toBe(r.messages!.zh.name);
      expect(provider.translate(key)).toBe(enKeys[key]);
    }
    expect(enKeys['resources.device/dataPlan.fields.usedGb']).toBe('Used this period (GB)');
  });

  it('give every definition with its own words the same keys in zh and en, and a label for each field, column and filter', () => {
    expect(RESOURCES.flatMap(definitionWordProblems)).toEqual([]);
  });

  it('label every field, column and filter a generic view of a resource shows, in both languages', () => {
    expect(RESOURCES.flatMap((r) => missingLabels(r, zhKeys))).toEqual([]);
    expect(RESOURCES.flatMap((r) => missingLabels(r, enKeys))).toEqual([]);
  });

  it('give the catalogue its menu names', () => {
    expect(
      [
        'menu.dashboard',
        'menu.user',
        'menu.deviceManageData',
        'menu.map',
        'menu.faultClearing',
        'menu.afterService',
        'menu.info',
        'menu.password',
      ].map((k) => enKeys[k]),
    ).toEqual([
      'Home',
      'User Account',
      'Status Monitor',
      'Location Track',
      'Troubleshooting',
      'After-sales Report',
      'Basic Info',
      'Password Change',
    ]);
  });

  it('set the document title per language', () => {
    expect(documentTitle('zh')).toBe('船舶卫星终端监控平台');
    expect(documentTitle('en')).toBe('Vessel Satellite Terminal Tracking');
  });

  it.each(['zh', 'en'] as const)('render the login page in %s with no raw key', (language) => {
    restoreState();
    setLanguage(language);
    const { container } = render(
      <ConsoleI18nProvider>
        <LoginPage onLoggedIn={() => undefined} />
      </ConsoleI18nProvider>,
    );
    expect(container.textContent).not.toMatch(/\b(console|menu|ra|error|validation)\.[a-zA-Z]/);
    expect(screen.getAllByText(language === 'zh' ? '登录' : 'Log in').length).toBeGreaterThan(0);
  });
});

/** Latin words a Chinese text may keep: acronyms, units, product and format names. */
const KEPT =
  /^([A-Z0-9-]{1,8}|vBox|dB|dBm|MB|English|xlsx|xls|http|https|m3u8|true|false|mini|small|medium|multipart|form|data|xx|Cookie|Excel|Webhook|Z)$/;
const CJK = /[\u3400-\u9fff]/;

describe('the Chinese catalogue (no text of the other language)', () => {
  it('has no value that is plain English where a translation is expected', () => {
    const english = Object.entries(zhKeys).filter(([key, value]) => {
      if (key.startsWith('console.lang.')) return false; // each language's own name
      const words = value.replace(/%\{\w+\}/g, '').match(/[A-Za-z][A-Za-z0-9-]*/g) ?? [];
      return words.some((w) => !KEPT.test(w)) && (!CJK.test(value) || value === enKeys[key]);
    });
    expect(english).toEqual([]);
  });

  it('has the keys the pages ask for (date placeholder, login sentence, fault hint, permission names)', () => {
    for (const key of [
      'console.date.placeholder',
      'console.error.loginFailedRemaining',
      'support.fault.detailHint',
      'support.permission.permissionLabel',
      'support.permission.rowAllLabel',
    ]) {
      expect(zhKeys[key], key).toBeTruthy();
      expect(zhKeys[key]).not.toBe(enKeys[key]);
      expect(enKeys[key], key).toBeTruthy();
    }
  });

  it('names every permission of the grid in both languages, never by its code', () => {
    for (const [language, table] of [
      ['zh', zhKeys],
      ['en', enKeys],
    ] as const) {
      const polyglot = new Polyglot({ locale: language, phrases: table });
      for (const m of PERMISSION_MODULES)
        for (const action of m.actions) {
          const name = polyglot.t('support.permission.permissionLabel', {
            module: table[`support.permission.modules.${m.key}`],
            action: table[`support.permission.action.${action}`],
          });
          expect(name, `${action}${m.key}`).not.toContain(`${action}${m.key}`);
          expect(name).not.toMatch(/%\{|support\.permission/);
          if (language === 'zh') expect(name).toMatch(CJK);
        }
    }
  });
});

describe("MUI's own texts follow the language (theme locale)", () => {
  const themed = (language: 'zh' | 'en') => buildTheme(PALETTES[0]!.primary, 'mini', language);

  it("takes the language's pack and the console's pagination words", () => {
    const zhTheme = themed('zh');
    const enTheme = themed('en');
    expect(zhTheme.components?.MuiAutocomplete?.defaultProps?.openText).toBe('打开');
    // enUS is MUI's own default: nothing to set, and nothing Chinese left over from zh.
    expect(enTheme.components?.MuiAutocomplete?.defaultProps?.openText ?? 'Open').toBe('Open');
    expect(zhTheme.components?.MuiTablePagination?.defaultProps?.labelRowsPerPage).toBe(zhKeys['ra.navigation.page_rows_per_page']);
    expect(enTheme.components?.MuiTablePagination?.defaultProps?.labelRowsPerPage).toBe('Rows per page:');
    expect(buildTheme(PALETTES[0]!.primary).components?.MuiAutocomplete?.defaultProps?.openText).toBe('打开');
  });

  it.each(['zh', 'en'] as const)('renders a table pagination and a pagination with no text of the other language in %s', (language) => {
    const { container } = render(
      <ThemeProvider theme={themed(language)}>
        <TablePagination
          component="div"
          count={95}
          page={1}
          rowsPerPage={10}
          rowsPerPageOptions={[10, 20]}
          onPageChange={() => undefined}
        />
        <Pagination count={5} page={2} />
      </ThemeProvider>,
    );
    const texts = [
      container.textContent ?? '',
      ...[...container.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label') ?? ''),
    ].join(' | ');
    if (language === 'zh') {
      expect(texts).not.toMatch(/Rows per page|Go to|pagination navigation|page|of /i);
      expect(texts).toContain('每页条数');
      expect(texts).toContain('下一页');
    } else {
      expect(texts).toMatch(/Rows per page/);
      expect(texts).not.toMatch(CJK);
    }
  });
});

describe("the error catalogue's messages (docs/requirements.md §8)", () => {
  const context = { onLoginPage: false, userName: 'admin' };
  const action = (code: number, msg: string, data: unknown) => catalogueAction(new ApiError(code, msg, data, '/x'), context);

  it('writes a message and its data as "msg [data]"', () => {
    expect(formatMessage('输入有误', [{ field: 'name', message: '用户名不能为空' }])).toBe('输入有误 [name: 用户名不能为空]');
    expect(action(1, 'Invalid input', [{ field: 'name', message: 'Username cannot be empty' }])).toMatchObject({
      kind: 'message',
      text: 'Invalid input [name: Username cannot be empty]',
      closable: true,
    });
    expect(action(3, 'Forbidden', null)).toMatchObject({ text: 'Forbidden' });
    expect(action(3, 'Forbidden', {})).toMatchObject({ text: 'Forbidden' });
    // An object reads as name: value, never as JSON.
    expect(action(9, 'Already exists', { name: 'x', count: 2 })).toMatchObject({ text: 'Already exists [name: x; count: 2]' });
  });

  it.each([
    ['zh', 4, '用户名或密码错误，还可以再试 4 次'],
    ['en', 4, 'Wrong username or password. 4 attempts left before the account is locked'],
    ['en', 1, 'Wrong username or password. 1 attempt left before the account is locked'],
  ] as const)('turns the wrong-password refusal into a sentence with the number (%s, %i)', (language, left, sentence) => {
    const result = action(ErrorCode.LoginFailed, 'Wrong username or password', { remainingAttempts: left });
    expect(result).toMatchObject({ kind: 'message', messageKey: 'console.error.loginFailedRemaining' });
    if (result.kind !== 'message') throw new Error('not a message');
    const polyglot = new Polyglot({ locale: language, phrases: language === 'zh' ? zh : en });
    const text = polyglot.t(result.messageKey!, result.messageArgs);
    expect(text).toBe(sentence);
    expect(text).not.toMatch(/remainingAttempts|[{}]/);
  });
});

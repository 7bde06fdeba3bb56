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

function flatten(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const zhKeys = flatten(zh);
const enKeys = flatten(en);

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

  it('give the catalogue its menu names', () => {
    expect(['menu.dashboard', 'menu.user', 'menu.deviceManageData', 'menu.map', 'menu.faultClearing', 'menu.afterService', 'menu.info', 'menu.password'].map((k) => enKeys[k]))
      .toEqual(['Home', 'User Account', 'Status Monitor', 'Location Track', 'Troubleshooting', 'After-sales Report', 'Basic Info', 'Password Change']);
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

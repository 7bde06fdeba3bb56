import polyglotI18nProvider from 'ra-i18n-polyglot';
import { DEFAULT_LANGUAGE, normaliseLanguage, type Language } from '../domain/constants';
import { zh } from './zh';
import { en } from './en';

export const MESSAGES = { zh, en } as const;

export const documentTitle = (language: Language): string => String(MESSAGES[language].console.title);

/** Polyglot over zh and en; zh is the default, any other saved value falls back to it. */
export function createI18nProvider(initial: string = DEFAULT_LANGUAGE) {
  return polyglotI18nProvider((locale) => MESSAGES[normaliseLanguage(locale)], normaliseLanguage(initial), [
    { locale: 'zh', name: '中文' },
    { locale: 'en', name: 'English' },
  ], { allowMissing: false });
}

import polyglotI18nProvider from 'ra-i18n-polyglot';
import { DEFAULT_LANGUAGE, normaliseLanguage } from '../domain/constants';
import { loadMessages, messagesOf } from './messages';

/**
 * react-admin's provider: polyglot over zh and en; zh is the default, anything else falls back to it.
 * The initial language's catalogue is already loaded (main.tsx); another is fetched when chosen.
 */
export function createI18nProvider(initial: string = DEFAULT_LANGUAGE) {
  return polyglotI18nProvider((locale) => (locale === normaliseLanguage(initial) ? messagesOf(normaliseLanguage(initial)) : loadMessages(normaliseLanguage(locale))), normaliseLanguage(initial), [
    { locale: 'zh', name: '中文' },
    { locale: 'en', name: 'English' },
  ]);
}

import polyglotI18nProvider from 'ra-i18n-polyglot';
import { DEFAULT_LANGUAGE, normaliseLanguage, type Language } from '../domain/constants';
import { loadMessages, messagesOf } from './messages';
import type { ConsoleMessages } from './zh';

/**
 * react-admin's provider: polyglot over zh and en; zh is the default, anything else falls back to it.
 * The initial language's catalogue is already loaded (main.tsx); another is fetched when chosen.
 */
export type ExtraMessages = Partial<Record<Language, Record<string, unknown>>>;

/** A catalogue with resources' own words added under resources.<name> (the catalogue's own entries win). */
const withExtra = (messages: ConsoleMessages, extra: Record<string, unknown> | undefined): ConsoleMessages =>
  extra ? ({ ...messages, resources: { ...extra, ...(messages as { resources?: object }).resources } } as ConsoleMessages) : messages;

/**
 * A language's catalogue as react-admin reads it: the console's catalogue (already loaded) with the
 * words resources bring (resourceMessages(language) of src/resources, passed in by the app shell).
 * The provider below builds its catalogues only through this, and the language tests read it.
 */
export const catalogueOf = (language: Language, extra?: Record<string, unknown>): ConsoleMessages => withExtra(messagesOf(language), extra);

export function createI18nProvider(initial: string = DEFAULT_LANGUAGE, extra: ExtraMessages = {}) {
  const first = normaliseLanguage(initial);
  return polyglotI18nProvider(
    (locale) => {
      const language = normaliseLanguage(locale);
      return language === first
        ? catalogueOf(first, extra[first])
        : loadMessages(language).then(() => catalogueOf(language, extra[language]));
    },
    first,
    [
      { locale: 'zh', name: '中文' },
      { locale: 'en', name: 'English' },
    ],
  );
}

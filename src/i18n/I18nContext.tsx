import { useMemo, type ReactNode } from 'react';
import Polyglot from 'node-polyglot';
import { I18nContext, type I18nProvider } from 'ra-core';
import type { Language } from '../domain/constants';
import { useClientState } from '../state/useClientState';
import { messagesOf } from './messages';

/**
 * react-admin's translation context for the pieces that live outside <Admin> (the login page, the
 * error dialogs): the same catalogues and language as react-admin's provider, without loading
 * react-admin. Every component translates with react-admin's useTranslate (from ra-core); inside
 * <Admin> its own provider answers, outside it this one does.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

const polyglots: Partial<Record<Language, Polyglot>> = {};
export function translatorFor(language: Language): Translate {
  const polyglot = (polyglots[language] ??= new Polyglot({
    locale: language,
    phrases: messagesOf(language) as object,
    allowMissing: true,
  }));
  return (key, options) => polyglot.t(key, { _: key, ...options });
}

export function ConsoleI18nProvider({ children }: { children: ReactNode }) {
  const language = useClientState((s) => s.language);
  const provider = useMemo<I18nProvider>(
    () => ({ translate: translatorFor(language), changeLocale: async () => undefined, getLocale: () => language }),
    [language],
  );
  return <I18nContext.Provider value={provider}>{children}</I18nContext.Provider>;
}

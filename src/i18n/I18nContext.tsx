import { createContext, useContext, useMemo, type ReactNode } from 'react';
import Polyglot from 'node-polyglot';
import type { Language } from '../domain/constants';
import { useClientState } from '../state/useClientState';
import { messagesOf } from './messages';

/**
 * Translation for the pieces that live outside react-admin (login page, error dialogs): the same
 * tables and language as react-admin's provider, without loading react-admin.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

const polyglots: Partial<Record<Language, Polyglot>> = {};
export function translatorFor(language: Language): Translate {
  const polyglot = (polyglots[language] ??= new Polyglot({ locale: language, phrases: messagesOf(language) as object, allowMissing: true }));
  return (key, options) => polyglot.t(key, { _: key, ...options });
}

const I18nContext = createContext<{ language: Language; t: Translate }>({ language: 'zh', t: (key) => key });

export function ConsoleI18nProvider({ children }: { children: ReactNode }) {
  const language = useClientState((s) => s.language);
  const value = useMemo(() => ({ language, t: translatorFor(language) }), [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useT = () => useContext(I18nContext);

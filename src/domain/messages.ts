import type { Language } from './constants';
import { domainZh, type DomainMessageKey } from './messagesZh';
import { domainEn } from './messagesEn';

/**
 * Messages the server and the console both show: validation rules (docs/requirements.md §5) and the
 * envelope's error codes. The console's i18n tables include these under the same keys; each
 * language is a file of its own (messagesZh.ts, messagesEn.ts) so the console loads only one.
 */
export type { DomainMessageKey };

export const domainMessages: Record<Language, Record<DomainMessageKey, string>> = { zh: domainZh, en: domainEn };

/** Words declared resources bring (their definitions' messages, under resources.<name>.), added once at start. */
const resourceWords: Record<Language, Record<string, string>> = { zh: {}, en: {} };

/** Adds a declared resource's words (docs/extending.md, "Its words"), so its rules' messages are translated too. */
export function addResourceWords(lang: Language, words: Record<string, string>): void {
  Object.assign(resourceWords[lang], words);
}

/** Polyglot-style %{name} interpolation, enough for the server's messages. */
export function translateDomain(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const table = domainMessages[lang] as Record<string, string>;
  const text = table[key] ?? resourceWords[lang][key] ?? key;
  return text.replace(/%\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}

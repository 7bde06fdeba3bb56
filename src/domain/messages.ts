import type { Language } from './constants';
import { domainZh, type DomainMessageKey } from './messagesZh';
import { domainEn } from './messagesEn';
import { commandWordsZh } from './commandWordsZh';
import { commandWordsEn } from './commandWordsEn';
import { reportWordsZh } from './reportWordsZh';
import { reportWordsEn } from './reportWordsEn';
import { exportWordsZh } from './exportWordsZh';
import { exportWordsEn } from './exportWordsEn';

/**
 * Messages the server and the console both show: validation rules (docs/requirements.md §5) and the
 * envelope's error codes. The console's i18n tables include these under the same keys; each
 * language is a file of its own (messagesZh.ts, messagesEn.ts) so the console loads only one.
 */
export type { DomainMessageKey };

export const domainMessages: Record<Language, Record<DomainMessageKey, string>> = { zh: domainZh, en: domainEn };

type Words = { [key: string]: string | Words };
/** { kind: { reboot: 'Reboot' } } under 'commands' -> { 'commands.kind.reboot': 'Reboot' }. */
const flat = (prefix: string, words: Words): [string, string][] =>
  Object.entries(words).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}.${k}`, v] as [string, string]] : flat(`${prefix}.${k}`, v),
  );

/** Words the server writes besides its messages: the console's command words (exports), the reports' (report.*) and the lists' exports' (export.*). */
const sharedWords: Record<Language, Record<string, string>> = {
  zh: { ...Object.fromEntries(flat('commands', commandWordsZh)), ...reportWordsZh, ...exportWordsZh },
  en: { ...Object.fromEntries(flat('commands', commandWordsEn)), ...reportWordsEn, ...exportWordsEn },
};

/** Words declared resources bring (their definitions' messages, under resources.<name>.), added once at start. */
const resourceWords: Record<Language, Record<string, string>> = { zh: {}, en: {} };

/** Adds a declared resource's words (docs/extending.md, "Its words"), so its rules' messages are translated too. */
export function addResourceWords(lang: Language, words: Record<string, string>): void {
  Object.assign(resourceWords[lang], words);
}

/** Polyglot-style %{name} interpolation, enough for the server's messages. */
export function translateDomain(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const table = domainMessages[lang] as Record<string, string>;
  const text = table[key] ?? sharedWords[lang][key] ?? resourceWords[lang][key] ?? key;
  return text.replace(/%\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}

import type { TranslationMessages } from 'react-admin';
import { domainZh } from '../domain/messagesZh';
import { reportWordsZh } from '../domain/reportWordsZh';
import { raZh, type DeepStrings } from './raZh';
import { consoleZh } from './consoleZh';
import type englishMessages from 'ra-language-english';

/**
 * Chinese, the default language: react-admin's messages (every ra.* key, checked by the
 * compiler), the domain messages under their own keys, and the console's strings.
 */
export type ConsoleMessages = TranslationMessages &
  DeepStrings<typeof englishMessages> &
  DeepStrings<typeof consoleZh> &
  Record<string, unknown>;

export const zh: ConsoleMessages = {
  ...raZh,
  ...domainZh,
  ...reportWordsZh,
  ...consoleZh,
};

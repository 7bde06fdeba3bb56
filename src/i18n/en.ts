import englishMessages from 'ra-language-english';
import { domainEn } from '../domain/messagesEn';
import { reportWordsEn } from '../domain/reportWordsEn';
import { consoleEn } from './consoleEn';
import type { ConsoleMessages } from './zh';

/** English: react-admin's English pack, the domain messages, the reports' words and the console's strings. */
export const en: ConsoleMessages = {
  ...englishMessages,
  ...domainEn,
  ...reportWordsEn,
  ...consoleEn,
};

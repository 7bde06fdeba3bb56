import englishMessages from 'ra-language-english';
import { domainEn } from '../domain/messagesEn';
import { consoleEn } from './consoleEn';
import type { ConsoleMessages } from './zh';

/** English: react-admin's English pack, the domain messages and the console's strings. */
export const en: ConsoleMessages = {
  ...englishMessages,
  ...domainEn,
  ...consoleEn,
};

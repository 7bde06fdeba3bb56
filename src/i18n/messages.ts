import type { Language } from '../domain/constants';
import { zh, type ConsoleMessages } from './zh';
import { en } from './en';

export const MESSAGES: Record<Language, ConsoleMessages> = { zh, en };

export const documentTitle = (language: Language): string => String(MESSAGES[language].console.title);

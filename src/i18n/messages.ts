import type { Language } from '../domain/constants';
import type { ConsoleMessages } from './zh';

/**
 * Each language's catalogue is a chunk of its own: the first load carries only the language in
 * use (main.tsx loads it before the first render), the other is fetched when it is chosen.
 */
const LOADERS: Record<Language, () => Promise<ConsoleMessages>> = {
  zh: () => import('./zh').then((m) => m.zh),
  en: () => import('./en').then((m) => m.en),
};
const loaded: Partial<Record<Language, ConsoleMessages>> = {};

export async function loadMessages(language: Language): Promise<ConsoleMessages> {
  return (loaded[language] ??= await LOADERS[language]());
}

/** A catalogue that loadMessages has brought; asking for one that is not there is a programming error. */
export function messagesOf(language: Language): ConsoleMessages {
  const messages = loaded[language];
  if (!messages) throw new Error(`the ${language} catalogue is not loaded`);
  return messages;
}

export const documentTitle = (language: Language): string => String(messagesOf(language).console.title);

/** A LIKE/ILIKE pattern that finds the text anywhere: its own %, _ and \ match themselves. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

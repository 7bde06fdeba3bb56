/**
 * The groups of a page, from the definition's `section` (an i18n key) on each field: the fields
 * without one first, in one untitled group, then each section in the order its first field comes.
 * The Show page and the forms both group through this (docs/extending.md, "What a definition can say").
 */
export interface Section<T> {
  /** The section's i18n key; null for the untitled first group. */
  key: string | null;
  items: T[];
}

export function groupBySection<T extends { section?: string }>(items: readonly T[]): Section<T>[] {
  const untitled: Section<T> = { key: null, items: [] };
  const named = new Map<string, Section<T>>();
  for (const item of items) {
    if (!item.section) {
      untitled.items.push(item);
      continue;
    }
    let section = named.get(item.section);
    if (!section) named.set(item.section, (section = { key: item.section, items: [] }));
    section.items.push(item);
  }
  return [untitled, ...named.values()].filter((s) => s.items.length > 0);
}

import { catalogueOf } from '../../src/i18n/i18nProvider';
import { resourceMessages } from '../../src/resources';
import { filterDefOf, type ResourceDefinition } from '../../src/resources/types';

/**
 * The catalogues as the console builds them for react-admin: the console's own (zh, en) with the
 * words resource definitions bring, through the provider's own catalogueOf (one place).
 */
export function flatten(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

export const builtCatalogue = (language: 'zh' | 'en') => catalogueOf(language, resourceMessages(language));
export const builtKeys = (language: 'zh' | 'en') => flatten(builtCatalogue(language));

/**
 * What is wrong with a definition's own words: keys in one language and not the other, and a
 * field, column or filter with neither its own label nor a word under fields.<source>.
 */
export function definitionWordProblems(definition: ResourceDefinition): string[] {
  const { messages } = definition;
  if (!messages) return [];
  const zh = flatten(messages.zh);
  const en = flatten(messages.en);
  const problems = [
    ...Object.keys(zh)
      .filter((k) => !(k in en))
      .map((k) => `${definition.name}: ${k} only in zh`),
    ...Object.keys(en)
      .filter((k) => !(k in zh))
      .map((k) => `${definition.name}: ${k} only in en`),
  ];
  const labelled = [
    ...definition.fields,
    ...definition.columns,
    // The search box is named by react-admin's own "Search".
    ...definition.filters.map(filterDefOf).filter((f) => f.kind !== 'search'),
  ].filter((item) => !item.label);
  for (const { source } of labelled)
    for (const [language, words] of [
      ['zh', zh],
      ['en', en],
    ] as const)
      if (!words[`fields.${source}`]) problems.push(`${definition.name}: no ${language} label for ${source}`);
  return [...new Set(problems)];
}

/**
 * The labels a generic view of this definition would look up and the catalogue lacks (a view the
 * resource replaces with its own is left out): the form's fields, the list's columns and filters,
 * the Show page's fields and columns.
 */
export function missingLabels(definition: ResourceDefinition, keys: Record<string, string>): string[] {
  const { views = {} } = definition;
  const generic = (view: keyof typeof views) => !views[view];
  const items = [
    ...(generic('create') || generic('edit') ? definition.fields : []),
    ...(generic('list') ? [...definition.columns, ...definition.filters.map(filterDefOf).filter((f) => f.kind !== 'search')] : []),
    ...(definition.show && generic('show') ? [...definition.fields, ...definition.columns] : []),
  ];
  const wanted = items.map((item) => item.label ?? `resources.${definition.name}.fields.${item.source}`);
  return [...new Set(wanted)].filter((key) => !keys[key]);
}

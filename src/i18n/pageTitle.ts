import type { Translate } from './I18nContext';

/**
 * A page's title as the menu, the tabs, the breadcrumb and the page heading show it. A title may
 * be a resource's name, whose English is a plural ("Port call |||| Port calls", docs/extending.md,
 * "Its words"): a page shows the many, so it is translated with a count of 2. A title without
 * "||||" comes back as it is, and Chinese has one form only.
 */
export const pageTitle = (translate: Translate, key: string): string => translate(key, { smart_count: 2 });

/**
 * The root of a vessel page: one grid column that may shrink to nothing, so a wide table or
 * chart scrolls inside its own box instead of widening the whole layout on a phone.
 */
export const PAGE_SX = { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' } as const;

import type { ResourceDeclaration } from './types';

/**
 * Resources declared outside src/resources (an integrator's own package): list them here, or
 * alias this module in vite.config.ts. The product ships none; the extension test aliases it to
 * its fixture (vitest project "extending").
 */
export const EXTENSION_RESOURCES: readonly ResourceDeclaration[] = [];

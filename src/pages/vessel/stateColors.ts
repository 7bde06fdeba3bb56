/** Colours of the connection states in the vessel pages (bands, chips). */
export const STATE_COLORS = { online: '#2e7d32', warn: '#ed6c02', offline: '#9e9e9e' } as const;
export const STATE_NAMES = ['offline', 'online', 'warn'] as const;

import type { CommandState } from '../../domain/commands';

/** A command's state as a chip colour (the fleet list and the vessel page's Commands section). */
export const COMMAND_STATE_COLORS: Readonly<Record<CommandState, 'default' | 'info' | 'success' | 'error' | 'warning'>> = {
  queued: 'default',
  sent: 'info',
  acknowledged: 'success',
  done: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};

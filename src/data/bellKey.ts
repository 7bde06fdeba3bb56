import { BELL_QUERY } from '../api/bellQuery';
import { callKey } from './dataHooks';

/**
 * The bell's place in the query cache: the monitoring module's live-state call with the bell's
 * query (src/api/bellQuery.ts), the key useCallQuery gives the bell's poll (src/layout/Bell.tsx). So
 * whatever changes alarms (acknowledge, clear: useCallMutation('monitoring', ...)) refreshes the
 * bell with the status monitor, the alarm list and the dashboard, and a live event refreshes it
 * at once (src/live/invalidations.ts).
 */
export const BELL_KEY = callKey('monitoring', 'liveAll', [BELL_QUERY]);

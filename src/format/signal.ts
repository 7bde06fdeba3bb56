import { roundSignal, SIGNAL_UNIT } from '../domain/signal';

/**
 * A signal level as the console shows it everywhere (the status monitor, the vessel's detail, its
 * charts and the track): a whole percent with its unit, "94 %"; '' when there is none.
 */
export function formatSignal(level: number | null | undefined): string {
  return typeof level === 'number' && Number.isFinite(level) ? `${roundSignal(level)} ${SIGNAL_UNIT}` : '';
}

import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useCallMutation, type Invalidates } from '../../data/dataHooks';

/** What acknowledging or clearing an alarm makes stale. */
const ALARMS_CHANGE: Invalidates = { calls: ['monitoring', 'vessel'] };

/**
 * Acknowledging and clearing alarms, and the clear confirmation's ids (null: closed). `onChanged`
 * runs after a success (the list drops its ticks).
 */
export function useAlarmActions(onChanged: () => void) {
  const translate = useTranslate();
  const notify = useNotify();
  const [confirmClear, setConfirmClear] = useState<number[] | null>(null);
  // Acknowledging or clearing refreshes every monitoring call (this list, the monitor, the dashboard,
  // the bell) and the vessel pages, which show a vessel's faults.
  const acknowledge = useCallMutation('monitoring', 'acknowledge', ALARMS_CHANGE);
  const clear = useCallMutation('monitoring', 'clear', ALARMS_CHANGE);
  const busy = acknowledge.isPending || clear.isPending;
  const run = (action: 'acknowledge' | 'clear', ids: number[]) => {
    // A failure: the error catalogue has shown the message.
    (action === 'acknowledge' ? acknowledge : clear).mutate([ids], {
      onSuccess: (result) => {
        notify(translate('monitor.alarms.changed', { smart_count: result.changed }), { type: 'success' });
        onChanged();
      },
      onSettled: () => setConfirmClear(null),
    });
  };
  return { busy, run, confirmClear, setConfirmClear };
}

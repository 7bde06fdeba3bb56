import type { Alarm } from '../../api/monitoringApi';

/** Which alarms the list shows (docs/console.md, "Live monitoring": active / cleared / all). */
export type AlarmShow = 'active' | 'cleared' | 'all';
export const ALARM_SHOWS: readonly AlarmShow[] = ['active', 'cleared', 'all'];
export const SEVERITY_COLOUR = { critical: 'error', major: 'warning', minor: 'info' } as const;

/** What the table and the cards both take: the page's alarms, the ticked ones and the row actions. */
export interface AlarmRowsProps {
  rows: Alarm[];
  selected: ReadonlySet<number>;
  toggle: (id: number) => void;
  busy: boolean;
  canClear: boolean;
  onAcknowledge: (id: number) => void;
  onClear: (id: number) => void;
}

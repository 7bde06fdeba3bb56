import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { Alarm } from '../../api/monitoringApi';
import type { AlarmRowsProps } from './alarmModel';
import { DegradeRepoint } from './DegradeRepoint';

/** An alarm row's actions, in the table and on the narrow screen's cards: acknowledge, clear, and a warning's re-point. */
export function AlarmRowButtons({
  alarm: a,
  busy,
  canClear,
  onAcknowledge,
  onClear,
  repointBelow = false,
}: Pick<AlarmRowsProps, 'busy' | 'canClear' | 'onAcknowledge' | 'onClear'> & {
  alarm: Alarm;
  /** The re-point on a line of its own, under acknowledge and clear (the table's narrow column). */
  repointBelow?: boolean;
}) {
  const translate = useTranslate();
  const buttons = (
    <>
      {a.active && !a.ackedAt && (
        <Button size="small" disabled={busy} onClick={() => onAcknowledge(a.id)} data-testid={`alarm-ack-${a.id}`}>
          {translate('monitor.alarms.acknowledge')}
        </Button>
      )}
      {a.active && canClear && (
        <Button size="small" color="error" disabled={busy} onClick={() => onClear(a.id)} data-testid={`alarm-clear-${a.id}`}>
          {translate('monitor.alarms.clear')}
        </Button>
      )}
    </>
  );
  return (
    <>
      {repointBelow ? <Box sx={{ whiteSpace: 'nowrap', ml: -0.75 }}>{buttons}</Box> : buttons}
      <DegradeRepoint alarm={a} />
    </>
  );
}

import { useTranslate } from 'ra-core';
import { useCallQuery } from '../../data/dataHooks';
import { DEGRADE_ALARM_CODE, degradeDetailOf } from '../../domain/degradeDetail';
import { CommandSender } from '../../resources/commands/CommandSender';

/**
 * On an active "degradation ahead" alarm that suggests a satellite: a button that re-points the
 * vessel to it (the command's own dialog and confirmation, the satellite chosen), for those who
 * may send the vessel commands.
 */
export function DegradeRepoint({
  alarm,
}: {
  alarm: { code: string; active: boolean; detail?: string | null; deviceId: number; deviceName: string };
}) {
  const t = useTranslate();
  const summary = alarm.code === DEGRADE_ALARM_CODE && alarm.active ? degradeDetailOf(alarm.detail) : null;
  const right = useCallQuery('commands', 'canSend', summary?.suggestion ? [alarm.deviceId] : null);
  if (!summary?.suggestion || right.data?.canSend !== true) return null;
  return (
    <CommandSender
      vessels={[{ id: alarm.deviceId, name: alarm.deviceName }]}
      kinds={['repoint']}
      currentSatellite={summary.suggestion}
      label={t('monitor.alarms.repointTo', { satellite: summary.suggestion })}
    />
  );
}

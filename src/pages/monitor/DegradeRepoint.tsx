import { useTranslate } from 'ra-core';
import Typography from '@mui/material/Typography';
import { durationText } from '../../domain/commandOutcome';
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

/**
 * What a "degradation ahead" warning says (its detail, src/domain/degradeDetail.ts), in the user's
 * language: when the vessel reaches the zone, how poor its satellite is there, and what to do.
 */
export function DegradeNote({ alarm }: { alarm: { code: string; detail?: string | null } }) {
  const t = useTranslate();
  const summary = alarm.code === DEGRADE_ALARM_CODE ? degradeDetailOf(alarm.detail) : null;
  if (!summary) return null;
  const advice = summary.suggestion
    ? t('monitor.alarms.degrade.repoint', { satellite: summary.suggestion })
    : summary.useBackup
      ? t('monitor.alarms.degrade.backup')
      : null;
  return (
    <Typography variant="body2" sx={{ fontSize: 12, mt: 0.25 }} data-testid="degrade-note">
      {t('monitor.alarms.degrade.summary', {
        satellite: summary.satellite,
        time: durationText(t, summary.minutes * 60),
        locked: summary.lockedPct,
      })}
      {advice && ` · ${advice}`}
    </Typography>
  );
}

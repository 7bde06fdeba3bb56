import { useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { STATISTICS_RANGES_DAYS } from '../../domain/constants';
import { Feature } from '../../domain/features';
import { timeZoneLabel } from '../../format/date';
import { useTranslate } from 'ra-core';
import { FeatureGate } from '../../layout/FeatureGate';
import { useClientState } from '../../state/useClientState';
import { FleetStatistics } from './FleetStatistics';
import { useVesselId } from './useVesselId';
import { PAGE_SX } from './pageLayout';
import { VesselPageHeader } from './VesselPageHeader';
import { VesselStatistics } from './VesselStatistics';

/**
 * Time statistics (/device/timeStatistics): online time per day over the last 5, 10 or 15 days,
 * days counted in the selected time zone; the whole fleet, or one vessel (?id=).
 */
export default function TimeStatisticsPage() {
  const t = useTranslate();
  const [id, setId] = useVesselId();
  const utcOffset = useClientState((s) => s.timeZone);
  const [days, setDays] = useState<number>(STATISTICS_RANGES_DAYS[0]);
  const [fleetTab, setFleetTab] = useState(!id);
  const showFleet = fleetTab || !id;
  const open = (vessel: number | null) => {
    setId(vessel);
    setFleetTab(!vessel);
  };
  return (
    <Box data-testid="time-statistics-page" sx={PAGE_SX}>
      <VesselPageHeader title={t('vessel.statistics.title')} id={id} onPick={open} current="statistics" requireVessel={false} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
        <Tabs value={showFleet ? 'fleet' : 'vessel'} onChange={(_, v: string) => setFleetTab(v === 'fleet')}>
          <Tab value="fleet" label={t('vessel.statistics.fleet')} data-testid="tab-fleet" />
          <Tab value="vessel" label={t('vessel.statistics.vessel')} disabled={!id} data-testid="tab-vessel" />
        </Tabs>
        <ToggleButtonGroup size="small" exclusive value={days} onChange={(_, d: number | null) => d && setDays(d)}>
          {STATISTICS_RANGES_DAYS.map((d) => (
            <ToggleButton key={d} value={d} data-testid={`days-${d}`}>
              {t('vessel.statistics.days', { days: d })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Typography variant="caption" color="text.secondary">
          {t('vessel.statistics.zone', { zone: timeZoneLabel(utcOffset) })}
        </Typography>
      </Stack>
      {showFleet ? (
        <FleetStatistics days={days} utcOffset={utcOffset} onOpen={open} />
      ) : (
        <FeatureGate feature={Feature.Statistics} deviceId={id}>
          <VesselStatistics deviceId={id!} days={days} utcOffset={utcOffset} />
        </FeatureGate>
      )}
    </Box>
  );
}

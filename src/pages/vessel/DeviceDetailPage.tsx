import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCallQuery } from '../../data/dataHooks';
import { DEVICE_KIND_LABELS, DEVICE_STATE_KEYS, type DeviceState } from '../../domain/deviceKinds';
import { Feature } from '../../domain/features';
import { DATA_WINDOW_NAMES, type DataWindow } from '../../domain/vesselSchemas';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { FeatureGate } from '../../layout/FeatureGate';
import { FaultList } from './FaultList';
import { FieldGrid } from './FieldGrid';
import { LoadState } from './LoadState';
import { STATE_COLORS, STATE_NAMES } from './stateColors';
import { useVesselId } from './useVesselId';
import { PAGE_SX } from './pageLayout';
import { VesselPageHeader } from './VesselPageHeader';
import { VoyageSection } from './VoyageSection';
import { CommandSection } from './CommandSection';
import { DataUsageSection } from './DataUsageSection';
import { LinkTimelineSection } from './LinkTimeline';
import { PendingReportNotice } from './PendingReportNotice';
import { NoVesselAccess, isNoVesselAccess } from './NoVesselAccess';
import type { VesselDetail } from '../../api/vesselApi';

const REBOOTING_POLL_MS = 5000;
import { formatSignal } from '../../format/signal';

const DetailCharts = lazy(() => import('./DetailCharts'));

const DEVICE_FIELDS = [
  'name',
  'deviceNum',
  'deviceSn',
  'mac',
  'mmsi',
  'imo',
  'callsign',
  'deviceKind',
  'deviceType',
  'deviceModel',
  'aduVersion',
  'bduVersion',
  'chipId',
  'modemSn',
  'hardware',
  'manufactureDate',
  'manufactureInfo',
  'ownerName',
  'ownerSubName',
  'groupName',
  'activated',
  'activatedAt',
] as const;
const REPORT_FIELDS = [
  'reportedAt',
  'receivedAt',
  'lat',
  'lon',
  'speed',
  'heading',
  'azimuth',
  'elevation',
  'skew',
  'satelliteName',
  'satelliteLongitude',
  'signalLevel',
  'snr',
  'modemLock',
  'txOn',
  'lteSignal',
  'reportedAduVersion',
  'reportedBduVersion',
  'offlineMinutes',
] as const;
const FIELD_LABEL_KEY: Record<string, string> = { ownerName: 'deviceField.ownerId', ownerSubName: 'deviceField.ownerSubId' };

/** A reboot under way: the vessel is down whatever its last report says. */
function RebootingChip({ rebooting }: { rebooting: NonNullable<VesselDetail['rebooting']> }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const time = format(rebooting.since);
  const title =
    rebooting.downForS === null
      ? t('vessel.rebooting.sinceNoTime', { time })
      : t('vessel.rebooting.since', { time, seconds: rebooting.downForS });
  return (
    <Tooltip title={title}>
      <Chip
        size="small"
        color="warning"
        data-testid="state-chip"
        data-state="rebooting"
        label={t('vessel.rebooting.chip')}
        aria-label={title}
      />
    </Tooltip>
  );
}

export function StateChip({ status }: { status: number }) {
  const t = useTranslate();
  const name = STATE_NAMES[status] ?? 'offline';
  return (
    <Chip
      size="small"
      data-testid="state-chip"
      label={t(DEVICE_STATE_KEYS[status as DeviceState] ?? 'deviceState.offline')}
      sx={{ bgcolor: STATE_COLORS[name], color: '#111' }}
    />
  );
}

/** Device detail data (/device/deviceDataDetail?id=): every field, the latest report, charts, faults, voyages. */
export default function DeviceDetailPage() {
  const t = useTranslate();
  const format = useDateFormatter();
  const [id, setId] = useVesselId();
  const [window, setWindow] = useState<DataWindow>('24h');
  // Read again while the vessel reboots, so the page says when it is back.
  const detail = useCallQuery('vessel', 'getDetail', id ? [id] : null, {
    refetchInterval: (query) => (query.state.data?.rebooting ? REBOOTING_POLL_MS : false),
  });
  const d = detail.data;
  const noAccess = id !== null && isNoVesselAccess(detail.error);
  const text = (v: unknown, decimals = 2) => {
    if (typeof v === 'boolean') return t(v ? 'vessel.detail.yes' : 'vessel.detail.no');
    if (typeof v === 'number') return String(Number(v.toFixed(decimals)));
    return v as string | null;
  };
  const deviceItems = d
    ? DEVICE_FIELDS.map((f) => ({
        label: t(FIELD_LABEL_KEY[f] ?? `deviceField.${f}`),
        value:
          f === 'deviceKind'
            ? (DEVICE_KIND_LABELS[d.device.deviceKind] ?? d.device.deviceKind)
            : f === 'activated'
              ? t(d.device.activated ? 'activation.activated' : 'activation.notActivated')
              : f === 'activatedAt'
                ? format(d.device.activatedAt)
                : text(d.device[f]),
      }))
    : [];
  const reportItems = d?.latest
    ? REPORT_FIELDS.map((f) => ({
        label: t(`vessel.detail.fields.${f}`),
        value:
          f === 'reportedAt' || f === 'receivedAt'
            ? format(d.latest![f] as string)
            : f === 'signalLevel'
              ? formatSignal(d.latest![f] as number | null)
              : text(d.latest![f], f === 'lat' || f === 'lon' ? 5 : 2),
      }))
    : [];

  // Not activated: the report it sent awaits activation (PendingReportNotice), none is counted yet.
  const noReportKey = d?.pendingReport && !d.device.activated ? 'vessel.detail.pending.notCounted' : 'vessel.detail.noReport';

  return (
    <Box data-testid="device-detail-page" sx={PAGE_SX}>
      <VesselPageHeader
        title={t('vessel.detail.title')}
        id={noAccess ? null : id}
        onPick={setId}
        current="detail"
        requireVessel={!noAccess}
      />
      {noAccess ? <NoVesselAccess onChoose={() => setId(null)} /> : id && <LoadState state={detail} />}
      {id && d && d.device.id === id && (
        <Stack spacing={2}>
          {!d.device.activated && <PendingReportNotice pending={d.pendingReport} />}
          <Paper sx={{ p: 2 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} data-testid="detail-name">
                {d.device.name}
              </Typography>
              {d.rebooting ? <RebootingChip rebooting={d.rebooting} /> : <StateChip status={d.status} />}
            </Stack>
            <FieldGrid items={deviceItems} testId="device-fields" />
          </Paper>
          <Paper sx={{ p: 2 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
              {t('vessel.detail.latest')}
            </Typography>
            {d.latest ? (
              <FieldGrid items={reportItems} testId="report-fields" />
            ) : (
              <Typography color="text.secondary">{t(noReportKey)}</Typography>
            )}
            <Typography variant="subtitle2" sx={{ mt: 2, mb: 1 }}>
              {t('vessel.detail.faults')}
            </Typography>
            <FaultList faults={d.faults} testId="active-faults" />
          </Paper>
          <VoyageSection key={id} deviceId={id} ownerId={d.device.ownerId} current={d.currentVoyage} />
          <CommandSection
            key={`commands-${id}`}
            deviceId={id}
            deviceName={d.device.name}
            currentSatellite={d.latest?.satelliteName as string | null | undefined}
          />
          <DataUsageSection key={`data-${id}`} deviceId={id} />
          <LinkTimelineSection key={`links-${id}`} deviceId={id} />
          <Paper sx={{ p: 2 }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, mb: 1.5 }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
                {t('vessel.detail.charts')}
              </Typography>
              <ToggleButtonGroup
                size="small"
                exclusive
                value={window}
                onChange={(_, w: DataWindow | null) => w && setWindow(w)}
                aria-label={t('vessel.detail.window')}
              >
                {DATA_WINDOW_NAMES.map((w) => (
                  <ToggleButton key={w} value={w} data-testid={`window-${w}`}>
                    {t(`vessel.detail.windows.${w}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
            </Stack>
            <FeatureGate feature={Feature.IotData} deviceId={id}>
              <Suspense fallback={<LinearProgress aria-label={t('ra.page.loading')} />}>
                <DetailCharts deviceId={id} window={window} />
              </Suspense>
            </FeatureGate>
          </Paper>
        </Stack>
      )}
    </Box>
  );
}

import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import SystemUpdateIcon from '@mui/icons-material/SystemUpdateAlt';
import { Loading, Title, useCreatePath, useGetOne, useTranslate, type RaRecord } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import type { FirmwarePackage } from '../../domain/firmware';
import { useCallQuery } from '../../data/dataHooks';
import { formatBytes } from '../../format/bytes';
import { useDateFormatter } from '../../format/useDateFormatter';
import { LIVE_REFRESH_MS, RolloutCard, unfinished } from './RolloutPanel';
import { RolloutDialog } from './RolloutDialog';
import { PackageEditDialog } from './PackageEditDialog';
import { PageHeading } from '../generic/PageHeading';

function PackageCard({ firmware }: { firmware: FirmwarePackage }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const rows: [string, React.ReactNode][] = [
    ['name', firmware.name],
    ['version', firmware.version],
    ['deviceType', firmware.deviceType],
    ['model', firmware.model],
    ['customer', firmware.customer],
    ['versionType', translate(`firmware.versionType.${firmware.versionType}`)],
    [
      'enabled',
      <Chip
        key="e"
        size="small"
        color={firmware.enabled ? 'success' : 'default'}
        label={translate(firmware.enabled ? 'firmware.enabledOn' : 'firmware.enabledOff')}
      />,
    ],
    ['fileSize', `${formatBytes(firmware.fileSize)} (${firmware.fileSize.toLocaleString()} B)`],
    [
      'sha256',
      <Box key="s" component="code" sx={{ fontSize: 12, wordBreak: 'break-all' }}>
        {firmware.sha256}
      </Box>,
    ],
    ['createdAt', format(firmware.createdAt)],
    ['updateInfo', firmware.updateInfo ?? ''],
  ];
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" sx={{ mb: 1 }}>
          {translate('firmware.package')}
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '140px 1fr' }, columnGap: 2, rowGap: 0.5, m: 0 }}>
          {rows.map(([key, value]) => (
            <Box key={key} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {translate(`firmware.fields.${key}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0 }, whiteSpace: 'pre-wrap' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * A package's page (/system/firmware/:id): what it is, a new rollout, and every rollout with each
 * device's update state and progress, refreshed every 2 s while devices are on their way.
 */
export function FirmwareDetail() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const id = Number(useParams<{ id: string }>().id);
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  // The package is the resource's record (getOne); the rollouts are calls, polled while devices are on their way.
  // Starting or cancelling a rollout and editing the package invalidate these (useCallMutation / useUpdate).
  const firmware = useGetOne<FirmwarePackage & RaRecord>('system/firmware', { id }, { enabled: Number.isFinite(id) });
  const rollouts = useCallQuery('firmware', 'rollouts', Number.isFinite(id) ? [id] : null, {
    refetchInterval: (q) => (q.state.data?.some(unfinished) ? LIVE_REFRESH_MS : false),
    staleTime: 0,
  });

  if (firmware.isPending) return <Loading />;
  if (firmware.isError || !firmware.data) {
    return (
      <Box sx={{ p: 2 }}>
        <Alert severity="error" action={<Button onClick={() => void firmware.refetch()}>{translate('firmware.retry')}</Button>}>
          {translate('firmware.loadError')}
        </Alert>
      </Box>
    );
  }
  const pkg = firmware.data;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gap: 2, minWidth: 0 }}>
      <Title title={`${translate('firmware.title')} · ${pkg.model} ${pkg.version}`} />
      <PageHeading title={`${translate('firmware.title')} · ${pkg.model} ${pkg.version}`} />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button component={Link} to={createPath({ resource: 'system/firmware', type: 'list' })} startIcon={<ArrowBackIcon />} size="small">
          {translate('firmware.back')}
        </Button>
        <Button
          variant="contained"
          size="small"
          startIcon={<SystemUpdateIcon />}
          onClick={() => setOpen(true)}
          disabled={!pkg.enabled}
          data-testid="fw-new-rollout"
        >
          {translate('firmware.rollout.new')}
        </Button>
        <Button size="small" startIcon={<EditIcon />} onClick={() => setEditing(true)} data-testid="fw-edit">
          {translate('ra.action.edit')}
        </Button>
      </Stack>
      <PackageCard firmware={pkg} />
      <Typography variant="h6">{translate('firmware.rollout.title')}</Typography>
      {rollouts.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {translate('firmware.rollout.none')}
        </Typography>
      )}
      {rollouts.isError && <Alert severity="error">{translate('firmware.loadError')}</Alert>}
      {rollouts.data?.map((r) => (
        <RolloutCard key={r.id} rollout={r} />
      ))}
      <PackageEditDialog firmware={pkg} open={editing} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      <RolloutDialog firmware={pkg} open={open} onClose={() => setOpen(false)} onStarted={() => setOpen(false)} />
    </Box>
  );
}

import { useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import UploadIcon from '@mui/icons-material/Upload';
import RestoreIcon from '@mui/icons-material/Restore';
import { List, useDelete, useListContext, useNotify, type RaRecord } from 'react-admin';
import { useTranslate } from 'ra-core';
import { useCallMutation } from '../../data/dataHooks';
import { ANTENNA_ICON_SIZE, LOGO_SIZE } from '../../domain/constants';
import { FileType } from '../../domain/pictures';
import { loadIcons } from '../../state/icons';
import { checkImage } from './imageCheck';
import { PageHeading } from '../generic/PageHeading';

const RESOURCE = 'system/icon';

/** The four fixed file types (docs/requirements.md §3): their message key, recommended size and built-in picture. */
const SLOTS = [
  { fileType: FileType.Logo, key: 'logo', size: LOGO_SIZE, fallback: '/logo.svg' },
  { fileType: FileType.AntennaOnline, key: 'online', size: ANTENNA_ICON_SIZE, fallback: '/icons/antenna-online.svg' },
  { fileType: FileType.AntennaOffline, key: 'offline', size: ANTENNA_ICON_SIZE, fallback: '/icons/antenna-offline.svg' },
  { fileType: FileType.AntennaAlarm, key: 'alarm', size: ANTENNA_ICON_SIZE, fallback: '/icons/antenna-alarm.svg' },
] as const;

type Slot = (typeof SLOTS)[number];

interface Picture extends RaRecord {
  fileType: number;
  content?: string;
  ownerId?: number;
}

/** One file type: its current picture, upload a new one, restore the default. */
function IconCard({ slot, record, loading }: { slot: Slot; record: Picture | undefined; loading: boolean }) {
  const t = useTranslate();
  const notify = useNotify();
  const [preview, setPreview] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  // The upload is multipart (no CRUD endpoint): a dataProvider call; the icon list is refetched, then the logo and antenna icons of the shell.
  const upload = useCallMutation(
    'users',
    'uploadPicture',
    { resources: [RESOURCE], calls: [] },
    {
      onSuccess: async () => {
        notify('console.icons.uploaded', { type: 'success' });
        await loadIcons();
      },
    },
  );
  const [remove, { isPending: restoring }] = useDelete<Picture>();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImage(file);
    if (problem) return notify(problem, { type: 'error' });
    const url = URL.createObjectURL(file);
    setPreview(url);
    // A refused upload is shown by the error catalogue (the request is not quiet).
    upload.mutate([slot.fileType, file], {
      onSettled: () => {
        setPreview(null);
        URL.revokeObjectURL(url);
      },
    });
  };
  const restore = (yes: boolean) => {
    setConfirm(false);
    if (!yes) return notify('console.icons.restoreCancel', { type: 'info' });
    remove(
      RESOURCE,
      { id: slot.fileType, previousData: record ?? { id: slot.fileType, fileType: slot.fileType } },
      {
        mutationMode: 'pessimistic',
        onSuccess: async () => {
          await loadIcons();
          notify('console.icons.restoreSuccess', { type: 'success' });
        },
        onError: () => notify('console.icons.restoreFail', { type: 'error' }),
      },
    );
  };

  const isLogo = slot.key === 'logo';
  const src = preview ?? record?.content ?? slot.fallback;
  return (
    <Paper sx={{ p: 2, height: '100%' }} data-testid={`icon-slot-${slot.fileType}`}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t(`console.icons.${slot.key}`)}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t('console.icons.recommended', slot.size)}
      </Typography>
      <Box
        sx={{
          my: 2,
          height: 110,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          bgcolor: isLogo ? 'secondary.main' : 'grey.100',
          borderRadius: 1,
        }}
      >
        {loading && !preview ? (
          <Skeleton variant="rectangular" width={isLogo ? 160 : 100} height={100} />
        ) : (
          <Box
            component="img"
            src={src}
            alt={t('console.icons.preview')}
            sx={{ maxWidth: isLogo ? 160 : 100, maxHeight: 100, objectFit: 'contain' }}
          />
        )}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component="label" variant="contained" startIcon={<UploadIcon />} disabled={upload.isPending}>
          {t('console.action.upload')}
          <input hidden type="file" accept="image/png,image/jpeg" onChange={onFile} data-testid={`icon-file-${slot.fileType}`} />
        </Button>
        <Button variant="outlined" startIcon={<RestoreIcon />} onClick={() => setConfirm(true)} disabled={restoring}>
          {t('console.action.restore')}
        </Button>
      </Box>
      <Dialog open={confirm} onClose={() => restore(false)}>
        <DialogContent>{t('console.icons.restoreConfirm')}</DialogContent>
        <DialogActions>
          <Button onClick={() => restore(false)}>{t('console.dialog.cancel')}</Button>
          <Button variant="contained" onClick={() => restore(true)}>
            {t('console.dialog.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

/** The four fixed types as cards, each with the server's picture of that type (if any). */
function IconCards() {
  const { data, isPending } = useListContext<Picture>();
  return (
    <Grid container spacing={2}>
      {SLOTS.map((slot) => (
        <Grid key={slot.fileType} size={{ xs: 12, sm: 6, lg: 3 }}>
          <IconCard slot={slot} record={data?.find((r) => Number(r.fileType) === slot.fileType)} loading={isPending} />
        </Grid>
      ))}
    </Grid>
  );
}

/** Icon management (levels 2 and 3): the logo and the three antenna icons of the enterprise. */
export function IconList() {
  const t = useTranslate();
  return (
    <List
      resource={RESOURCE}
      title={t('menu.icon')}
      perPage={SLOTS.length}
      pagination={false}
      actions={false}
      empty={false}
      sort={{ field: 'fileType', order: 'ASC' }}
      queryOptions={{ onError: () => undefined }}
      component="div"
    >
      <PageHeading titleKey="menu.icon" />
      <IconCards />
    </List>
  );
}

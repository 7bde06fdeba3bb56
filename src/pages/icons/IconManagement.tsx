import { useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import UploadIcon from '@mui/icons-material/Upload';
import RestoreIcon from '@mui/icons-material/Restore';
import { useNotify } from 'react-admin';
import { usersApi } from '../../api/usersApi';
import { ANTENNA_ICON_SIZE, LOGO_SIZE } from '../../domain/constants';
import { FileType } from '../../domain/pictures';
import { useTranslate } from 'ra-core';
import { loadIcons } from '../../state/icons';
import { useClientState } from '../../state/useClientState';
import type { ClientState } from '../../state/clientState';
import { checkImage } from './imageCheck';

const SLOTS: { fileType: number; key: keyof ClientState['icons']; size: { width: number; height: number } }[] = [
  { fileType: FileType.Logo, key: 'logo', size: LOGO_SIZE },
  { fileType: FileType.AntennaOnline, key: 'online', size: ANTENNA_ICON_SIZE },
  { fileType: FileType.AntennaOffline, key: 'offline', size: ANTENNA_ICON_SIZE },
  { fileType: FileType.AntennaAlarm, key: 'alarm', size: ANTENNA_ICON_SIZE },
];

function Slot({ slot }: { slot: (typeof SLOTS)[number] }) {
  const t = useTranslate();
  const notify = useNotify();
  const current = useClientState((s) => s.icons[slot.key]);
  const [preview, setPreview] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = checkImage(file);
    if (problem) return notify(problem, { type: 'error' });
    setPreview(URL.createObjectURL(file));
    try {
      await usersApi.uploadPicture(slot.fileType, file);
      notify('console.icons.uploaded', { type: 'success' });
      await loadIcons();
    } catch {
      /* shown by the catalogue */
    } finally {
      setPreview(null);
    }
  };
  const restore = async (yes: boolean) => {
    setConfirm(false);
    if (!yes) return notify('console.icons.restoreCancel', { type: 'info' });
    try {
      await usersApi.restorePicture(slot.fileType);
      await loadIcons();
      notify('console.icons.restoreSuccess', { type: 'success' });
    } catch {
      notify('console.icons.restoreFail', { type: 'error' });
    }
  };

  const src = preview ?? current ?? (slot.key === 'logo' ? '/logo.svg' : `/icons/antenna-${slot.key}.svg`);
  return (
    <Paper sx={{ p: 2, height: '100%' }} data-testid={`icon-slot-${slot.fileType}`}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>{t(`console.icons.${slot.key}`)}</Typography>
      <Typography variant="caption" color="text.secondary">{t('console.icons.recommended', slot.size)}</Typography>
      <Box sx={{ my: 2, height: 110, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: slot.key === 'logo' ? 'secondary.main' : 'grey.100', borderRadius: 1 }}>
        <Box component="img" src={src} alt={t('console.icons.preview')} sx={{ maxWidth: slot.key === 'logo' ? 160 : 100, maxHeight: 100, objectFit: 'contain' }} />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button component="label" variant="contained" startIcon={<UploadIcon />}>
          {t('console.action.upload')}
          <input hidden type="file" accept="image/png,image/jpeg" onChange={upload} data-testid={`icon-file-${slot.fileType}`} />
        </Button>
        <Button variant="outlined" startIcon={<RestoreIcon />} onClick={() => setConfirm(true)}>{t('console.action.restore')}</Button>
      </Box>
      <Dialog open={confirm} onClose={() => restore(false)}>
        <DialogContent>{t('console.icons.restoreConfirm')}</DialogContent>
        <DialogActions>
          <Button onClick={() => restore(false)}>{t('console.dialog.cancel')}</Button>
          <Button variant="contained" onClick={() => restore(true)}>{t('console.dialog.confirm')}</Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}

/** Icon management (levels 2 and 3): the logo and the three antenna icons of the enterprise. */
export default function IconManagement() {
  const t = useTranslate();
  return (
    <Box>
      <Typography variant="h6" component="h1" sx={{ mb: 2 }}>{t('menu.icon')}</Typography>
      <Grid container spacing={2}>
        {SLOTS.map((slot) => (
          <Grid key={slot.fileType} size={{ xs: 12, sm: 6, lg: 3 }}>
            <Slot slot={slot} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

import { lazy, Suspense, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Confirm, useCanAccess, useDelete, useGetList, useNotify } from 'react-admin';
import type { Camera } from '../../api/vesselApi';
import { Feature } from '../../domain/features';
import { useTranslate } from 'ra-core';
import { FeatureGate } from '../../layout/FeatureGate';
import { CameraFormDialog } from './CameraFormDialog';
import { LoadState } from './LoadState';
import { useVesselId } from './useVesselId';
import { PAGE_SX } from './pageLayout';
import { VesselPageHeader } from './VesselPageHeader';

const StreamPlayer = lazy(() => import('./StreamPlayer'));

/** The camera resource (src/resources/cameras/definition.ts): this page is its list view. */
const CAMERAS = 'device/cameraInfo';

/**
 * Device video link (/device/cameraInfo?id=): a vessel's cameras; feature "camera". The vessel
 * picked here (?id=) is the list's required deviceId filter.
 */
export default function CameraPage() {
  const t = useTranslate();
  const [id, setId] = useVesselId();
  return (
    <Box data-testid="camera-page" sx={PAGE_SX}>
      <VesselPageHeader title={t('vessel.camera.title')} id={id} onPick={setId} current="camera" />
      {id && (
        <FeatureGate feature={Feature.Camera} deviceId={id}>
          <CameraList key={id} deviceId={id} />
        </FeatureGate>
      )}
    </Box>
  );
}

function CameraList({ deviceId }: { deviceId: number }) {
  const t = useTranslate();
  const notify = useNotify();
  const { canAccess: canCreate } = useCanAccess({ resource: CAMERAS, action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: CAMERAS, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: CAMERAS, action: 'delete' });
  // camera/getAll answers every camera of the vessel, by name: one page holds them all.
  const cameras = useGetList<Camera>(CAMERAS, {
    filter: { deviceId },
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [deleteOne] = useDelete<Camera>();
  const [playing, setPlaying] = useState<Camera | null>(null);
  const [editing, setEditing] = useState<Camera | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Camera | null>(null);
  const open = (c: Camera) => {
    if (c.kind === 'external') window.open(c.link, '_blank', 'noopener,noreferrer');
    else setPlaying(c);
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await deleteOne(CAMERAS, { id: deleting.id, previousData: deleting }, { mutationMode: 'pessimistic', returnPromise: true });
      notify('vessel.voyage.deleted', { type: 'success' });
      if (playing?.id === deleting.id) setPlaying(null);
    } catch {
      /* shown by the catalogue */
    }
    setDeleting(null);
  };
  return (
    <Stack spacing={2}>
      {playing && (
        <Paper sx={{ p: 2 }}>
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
            <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
              {t('vessel.camera.playing', { name: playing.name })}
            </Typography>
            <Tooltip title={t('vessel.camera.close')}>
              <IconButton onClick={() => setPlaying(null)}>
                <CloseIcon />
              </IconButton>
            </Tooltip>
          </Stack>
          <Suspense fallback={<LinearProgress aria-label={t('ra.page.loading')} />}>
            <StreamPlayer camera={playing} />
          </Suspense>
        </Paper>
      )}
      <Paper sx={{ p: 2 }}>
        {canCreate && (
          <Button
            size="small"
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEditing(null)}
            sx={{ mb: 1 }}
            data-testid="camera-add"
          >
            {t('vessel.camera.add')}
          </Button>
        )}
        <LoadState state={cameras} />
        {cameras.data && (
          <TableContainer>
            <Table size="small" data-testid="camera-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('vessel.camera.fields.name')}</TableCell>
                  <TableCell>{t('vessel.camera.fields.kind')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('vessel.camera.fields.link')}</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('vessel.camera.fields.description')}</TableCell>
                  <TableCell align="right">{t('vessel.form.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {cameras.data.map((c) => (
                  <TableRow key={c.id}>
                    <TableCell>{c.name}</TableCell>
                    <TableCell>
                      <Chip size="small" label={t(`vessel.camera.kinds.${c.kind}`)} />
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, wordBreak: 'break-all' }}>{c.link}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{c.description}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={t(c.kind === 'external' ? 'vessel.camera.openTab' : 'vessel.camera.open')}>
                        <IconButton size="small" color="primary" onClick={() => open(c)} data-testid="camera-open">
                          {c.kind === 'external' ? <OpenInNewIcon fontSize="small" /> : <PlayArrowIcon fontSize="small" />}
                        </IconButton>
                      </Tooltip>
                      {canEdit && (
                        <Tooltip title={t('vessel.form.edit')}>
                          <IconButton size="small" onClick={() => setEditing(c)} data-testid="camera-edit">
                            <EditIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                      {canDelete && (
                        <Tooltip title={t('vessel.camera.delete')}>
                          <IconButton size="small" color="error" onClick={() => setDeleting(c)}>
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
                {cameras.data.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={5}>
                      <Typography variant="body2" color="text.secondary" data-testid="camera-none">
                        {t('vessel.camera.none')}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Paper>
      <CameraFormDialog
        deviceId={deviceId}
        camera={editing ?? null}
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        onSaved={() => setEditing(undefined)}
      />
      <Confirm
        isOpen={!!deleting}
        title="vessel.camera.delete"
        content={t('vessel.camera.deleteConfirm', { name: deleting?.name ?? '' })}
        onConfirm={() => {
          void remove();
        }}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}

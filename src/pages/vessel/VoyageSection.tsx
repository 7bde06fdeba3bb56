import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { Confirm, useCanAccess, useDelete, useGetManyReference, useNotify } from 'react-admin';
import type { Voyage } from '../../api/vesselApi';
import { callKey } from '../../data/dataHooks';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';
import { FieldGrid } from './FieldGrid';
import { LoadState } from './LoadState';
import { VOYAGES, VoyageFormDialog } from './VoyageFormDialog';

const STATUS_COLOR = { planned: 'info', underway: 'success', arrived: 'default' } as const;
const PAGE_SIZE = 5;
/** Columns a phone leaves out (the current voyage above shows them). */
const NARROW_HIDDEN = new Set(['destination', 'agent']);
const HIDE_ON_PHONE = { display: { xs: 'none', sm: 'table-cell' } } as const;

export function VoyageStatusChip({ status }: { status: Voyage['status'] }) {
  const t = useTranslate();
  return <Chip size="small" color={STATUS_COLOR[status]} label={t(`vessel.voyage.status.${status}`)} />;
}

/**
 * The vessel's current voyage and its voyage history (the voyage resource's records whose
 * deviceId is this vessel). Levels 1 and 2 add, edit and delete; a sub-user reads (the server
 * refuses its writes too). A change refetches the vessel's detail (its current voyage).
 */
export function VoyageSection({ deviceId, ownerId, current }: { deviceId: number; ownerId: number; current: Voyage | null }) {
  const t = useTranslate();
  const notify = useNotify();
  const format = useDateFormatter();
  const queryClient = useQueryClient();
  const { canAccess: canCreate } = useCanAccess({ resource: VOYAGES, action: 'create' });
  const { canAccess: canEdit, isPending: editPending } = useCanAccess({ resource: VOYAGES, action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: VOYAGES, action: 'delete' });
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Voyage | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Voyage | null>(null);
  const history = useGetManyReference<Voyage>(
    VOYAGES,
    {
      target: 'deviceId',
      id: deviceId,
      pagination: { page: page + 1, perPage: PAGE_SIZE },
      sort: { field: 'etd', order: 'DESC' },
      filter: {},
    },
    { placeholderData: keepPreviousData },
  );
  const [deleteOne] = useDelete<Voyage>();
  const changed = () => {
    setEditing(undefined);
    void queryClient.invalidateQueries({ queryKey: [VOYAGES] });
    void queryClient.invalidateQueries({ queryKey: callKey('vessel') });
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      await deleteOne(VOYAGES, { id: deleting.id, previousData: deleting }, { mutationMode: 'pessimistic', returnPromise: true });
      notify('vessel.voyage.deleted', { type: 'success' });
      changed();
    } catch {
      /* shown by the catalogue */
    }
    setDeleting(null);
  };

  return (
    <Paper sx={{ p: 2 }} data-testid="voyage-section">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {t('vessel.voyage.current')}
        </Typography>
        {canCreate && (
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="voyage-add">
            {t('vessel.voyage.add')}
          </Button>
        )}
      </Stack>
      {current ? (
        <Stack spacing={1} data-testid="current-voyage">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography sx={{ fontWeight: 600 }}>{current.voyageNo}</Typography>
            <VoyageStatusChip status={current.status} />
          </Stack>
          <FieldGrid
            items={[
              { label: t('vessel.voyage.fields.destination'), value: current.destination },
              { label: t('vessel.voyage.fields.etd'), value: format(current.etd) },
              { label: t('vessel.voyage.fields.eta'), value: format(current.eta) },
              { label: t('vessel.voyage.fields.agent'), value: current.agent },
              { label: t('vessel.voyage.fields.email'), value: current.email },
              { label: t('vessel.voyage.fields.phone'), value: current.phone },
              { label: t('vessel.voyage.fields.remark'), value: current.remark },
            ]}
          />
        </Stack>
      ) : (
        <Typography color="text.secondary" data-testid="current-voyage-none">
          {t('vessel.voyage.none')}
        </Typography>
      )}
      {!editPending && !canEdit && (
        <Alert severity="info" sx={{ mt: 1.5 }}>
          {t('vessel.voyage.readOnly')}
        </Alert>
      )}

      <Typography variant="subtitle2" component="h3" sx={{ mt: 2.5, mb: 1 }}>
        {t('vessel.voyage.history')}
      </Typography>
      <LoadState state={history} />
      {history.data && history.total !== undefined && (
        <>
          <TableContainer>
            <Table size="small" data-testid="voyage-history">
              <TableHead>
                <TableRow>
                  {(['voyageNo', 'destination', 'etd', 'eta', 'agent', 'status'] as const).map((f) => (
                    <TableCell key={f} sx={{ whiteSpace: 'nowrap', ...(NARROW_HIDDEN.has(f) ? HIDE_ON_PHONE : {}) }}>
                      {t(`vessel.voyage.fields.${f}`)}
                    </TableCell>
                  ))}
                  {(canEdit || canDelete) && <TableCell align="right">{t('vessel.form.actions')}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {history.data.map((v) => (
                  <TableRow key={v.id}>
                    <TableCell>{v.voyageNo}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{v.destination}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(v.etd)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{format(v.eta)}</TableCell>
                    <TableCell sx={HIDE_ON_PHONE}>{v.agent}</TableCell>
                    <TableCell>
                      <VoyageStatusChip status={v.status} />
                    </TableCell>
                    {(canEdit || canDelete) && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {canEdit && (
                          <Tooltip title={t('vessel.form.edit')}>
                            <IconButton size="small" onClick={() => setEditing(v)} data-testid="voyage-edit">
                              <EditIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        )}
                        {canDelete && (
                          <Tooltip title={t('vessel.voyage.delete')}>
                            <IconButton size="small" color="error" onClick={() => setDeleting(v)}>
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        )}
                      </TableCell>
                    )}
                  </TableRow>
                ))}
                {history.data.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={7}>
                      <Typography variant="body2" color="text.secondary">
                        {t('vessel.voyage.none')}
                      </Typography>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          {history.total > PAGE_SIZE && (
            <TablePagination
              component="div"
              count={history.total}
              page={page}
              rowsPerPage={PAGE_SIZE}
              rowsPerPageOptions={[PAGE_SIZE]}
              onPageChange={(_, p) => setPage(p)}
            />
          )}
        </>
      )}
      <VoyageFormDialog
        ownerId={ownerId}
        deviceId={deviceId}
        voyage={editing ?? null}
        open={editing !== undefined}
        onClose={() => setEditing(undefined)}
        onSaved={changed}
      />
      <Confirm
        isOpen={!!deleting}
        title="vessel.voyage.delete"
        content={t('vessel.voyage.deleteConfirm', { no: deleting?.voyageNo ?? '' })}
        onConfirm={() => {
          void remove();
        }}
        onClose={() => setDeleting(null)}
      />
    </Paper>
  );
}

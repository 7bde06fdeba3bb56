import { useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import { useCallMutation } from '../../data/dataHooks';
import { errorCode, errorData } from '../../data/dataProvider';
import type { ImportRowError } from '../../domain/device';
import { ErrorCode } from '../../domain/errorCodes';
import { useClientState } from '../../state/useClientState';
import { IMPORT_ACCEPT, isExcelName } from './importFile';
import { formatBytes } from '../../format/bytes';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'checking' }
  | { kind: 'done'; imported: number }
  | { kind: 'rows'; message: string; rows: ImportRowError[] }
  | { kind: 'failed'; message: string };

const isRowError = (item: unknown): item is ImportRowError =>
  typeof item === 'object' && item !== null && 'row' in item && 'column' in item && 'message' in item;

/**
 * Batch import (device list, levels 1 and 2): the template in the current language, a .xlsx/.xls
 * file, a real upload progress bar, then either the number imported or every bad row (row number,
 * column, message) the server found before writing anything.
 */
export function ImportDialog() {
  const translate = useTranslate();
  // The upload (with its progress) and the template are file transfers reached through dataProvider.call.
  const upload = useCallMutation('devices', 'importDevices', { resources: ['system/deviceManagement', 'device/deviceData'], calls: [] });
  const template = useCallMutation('devices', 'importTemplate', { calls: [] }, { onError: () => undefined });
  const language = useClientState((s) => s.language);
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [wrongType, setWrongType] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const busy = phase.kind === 'uploading' || phase.kind === 'checking';

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    setPhase({ kind: 'idle' });
    setWrongType(Boolean(chosen && !isExcelName(chosen.name)));
    setFile(chosen && isExcelName(chosen.name) ? chosen : null);
  };
  const start = async () => {
    if (!file) return;
    setPhase({ kind: 'uploading', fraction: 0 });
    try {
      const { imported } = await upload.mutateAsync([
        file,
        (fraction) => setPhase(fraction >= 1 ? { kind: 'checking' } : { kind: 'uploading', fraction }),
      ]);
      setPhase({ kind: 'done', imported });
      setFile(null);
    } catch (error) {
      const data = errorData(error);
      const message = error instanceof Error ? error.message : String(error);
      if (errorCode(error) === ErrorCode.Validation && Array.isArray(data) && data.some(isRowError)) {
        setPhase({ kind: 'rows', message, rows: data.filter(isRowError) });
      } else {
        setPhase({ kind: 'failed', message });
      }
    }
  };
  const close = () => {
    if (busy) return;
    setOpen(false);
    setFile(null);
    setWrongType(false);
    setPhase({ kind: 'idle' });
  };

  return (
    <>
      <Button size="small" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)} data-testid="import-open">
        {translate('devices.list.import')}
      </Button>
      <Dialog open={open} onClose={close} maxWidth="md" fullWidth data-testid="import-dialog">
        <DialogTitle>{translate('devices.import.title')}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('devices.import.steps')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => template.mutate([language])}
              data-testid="import-template"
            >
              {translate('devices.import.template')}
            </Button>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
              {translate('devices.import.pick')}
              <input hidden type="file" accept={IMPORT_ACCEPT} onChange={pick} data-testid="import-file" />
            </Button>
            <Typography variant="body2" color="text.secondary" data-testid="import-file-name">
              {file
                ? translate('devices.import.picked', { name: file.name, size: formatBytes(file.size) })
                : translate('devices.import.noFile')}
            </Typography>
          </Box>
          {wrongType && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {translate('devices.import.wrongType')}
            </Alert>
          )}
          {phase.kind === 'uploading' && (
            <Box sx={{ mb: 2 }} data-testid="import-progress">
              <LinearProgress variant="determinate" value={Math.round(phase.fraction * 100)} />
              <Typography variant="caption">
                {translate('devices.import.uploading', { percent: Math.round(phase.fraction * 100) })}
              </Typography>
            </Box>
          )}
          {phase.kind === 'checking' && (
            <Box sx={{ mb: 2 }} data-testid="import-progress">
              <LinearProgress />
              <Typography variant="caption">{translate('devices.import.checking')}</Typography>
            </Box>
          )}
          {phase.kind === 'done' && (
            <Alert severity="success" data-testid="import-success">
              {translate('devices.import.success', { smart_count: phase.imported })}
            </Alert>
          )}
          {phase.kind === 'failed' && (
            <Alert severity="error" data-testid="import-failed">
              {phase.message}
            </Alert>
          )}
          {phase.kind === 'rows' && (
            <Box data-testid="import-report">
              <Alert severity="error" sx={{ mb: 1 }}>
                {phase.message}
              </Alert>
              <Box sx={{ maxHeight: 320, overflow: 'auto' }}>
                <Table size="small" stickyHeader>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('devices.import.row')}</TableCell>
                      <TableCell>{translate('devices.import.column')}</TableCell>
                      <TableCell>{translate('devices.import.message')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {phase.rows.map((r, i) => (
                      <TableRow key={`${r.row}-${r.column}-${i}`} data-testid="import-row-error">
                        <TableCell>{r.row}</TableCell>
                        <TableCell>{r.column}</TableCell>
                        <TableCell>{r.message}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {translate('devices.import.close')}
          </Button>
          <Button variant="contained" onClick={start} disabled={!file || busy} data-testid="import-start">
            {translate('devices.import.start')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

/** The confirmation before clearing alarms (levels 1 and 2; docs/console.md, "Live monitoring"). */
export function ClearAlarmsDialog({
  ids,
  busy,
  onClose,
  onConfirm,
}: {
  ids: number[] | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (ids: number[]) => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={ids !== null} onClose={onClose}>
      <DialogTitle>{translate('monitor.alarms.clearTitle')}</DialogTitle>
      <DialogContent>{translate('monitor.alarms.clearConfirm', { smart_count: ids?.length ?? 0 })}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('console.dialog.cancel')}</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={() => ids && onConfirm(ids)} data-testid="alarms-clear-confirm">
          {translate('monitor.alarms.clear')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import type { CatalogueAction } from '../api';
import type { Translate } from '../i18n/I18nContext';

export type CatalogueDialog = Extract<CatalogueAction, { kind: 'confirmReload' | 'kicked' }>;
type MessageAction = Extract<CatalogueAction, { kind: 'message' }>;
export interface ShownMessage extends MessageAction {
  id: number;
}

/** What ErrorCatalogueHost shows: the -24 and -124/-125 dialogs and the 5-second messages. */
export function CatalogueView({
  t,
  dialog,
  messages,
  onLeave: leave,
  onDismiss: dismiss,
}: {
  t: Translate;
  dialog: CatalogueDialog | null;
  messages: ShownMessage[];
  onLeave: () => void;
  onDismiss: (id: number) => void;
}) {
  return (
    <>
      {dialog && (
        <Dialog
          open
          onClose={dialog.kind === 'kicked' ? leave : undefined}
          disableEscapeKeyDown={dialog.kind === 'confirmReload'}
          data-testid={dialog.kind === 'kicked' ? 'kicked-dialog' : 'kicked-out-dialog'}
          aria-labelledby="catalogue-dialog-title"
        >
          <DialogTitle id="catalogue-dialog-title">
            {t(dialog.kind === 'kicked' ? 'console.dialog.kickedTitle' : 'console.dialog.notice')}
          </DialogTitle>
          <DialogContent>
            <DialogContentText>{t(dialog.messageKey)}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={leave} autoFocus>
              {t(dialog.kind === 'kicked' ? 'console.dialog.loginAgain' : 'console.dialog.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      <Stack
        spacing={1}
        sx={{
          position: 'fixed',
          top: 16,
          left: '50%',
          transform: 'translateX(-50%)',
          zIndex: 1500,
          width: 'min(560px, 92vw)',
          pointerEvents: 'none',
        }}
      >
        {messages.map((m) => (
          <Snackbar
            key={m.id}
            open
            autoHideDuration={m.durationMs}
            onClose={(_, reason) => reason !== 'clickaway' && dismiss(m.id)}
            sx={{ position: 'static', transform: 'none', pointerEvents: 'auto' }}
          >
            <Alert
              severity={m.messageKey === 'error.busy' || m.messageKey === 'error.exportTooFrequent' ? 'warning' : 'error'}
              variant="filled"
              role="alert"
              data-testid="error-message"
              onClose={m.closable ? () => dismiss(m.id) : undefined}
              sx={{ width: '100%' }}
            >
              {m.text ?? t(m.messageKey ?? '', m.messageArgs)}
            </Alert>
          </Snackbar>
        ))}
      </Stack>
    </>
  );
}

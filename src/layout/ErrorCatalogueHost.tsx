import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import { onCatalogueAction, type CatalogueAction } from '../api';
import { useT } from '../i18n/I18nContext';
import { clearSession, setState } from '../state/clientState';

/**
 * Carries out the error catalogue of SPEC section 8 on screen: the duplicate-login confirm, the
 * -24 dialog, the login-again flag, reloads and the 5-second messages. Lives outside react-admin
 * so the login page has it too.
 */
export interface PageActions {
  reload: () => void;
  goTo: (path: string) => void;
}

const browserActions: PageActions = {
  reload: () => window.location.reload(),
  goTo: (path) => window.location.assign(path),
};

type MessageAction = Extract<CatalogueAction, { kind: 'message' }>;
interface Shown extends MessageAction {
  id: number;
}

let nextId = 1;

export function ErrorCatalogueHost({ actions = browserActions }: { actions?: PageActions }) {
  const { t } = useT();
  const [dialog, setDialog] = useState<Extract<CatalogueAction, { kind: 'confirmReload' | 'kicked' }> | null>(null);
  const [messages, setMessages] = useState<Shown[]>([]);

  useEffect(
    () =>
      onCatalogueAction((action) => {
        switch (action.kind) {
          case 'confirmReload':
          case 'kicked':
            setDialog((current) => current ?? action);
            return;
          case 'relogin':
            setState({ relogin: true });
            return;
          case 'reload':
            actions.reload();
            return;
          case 'toLogin':
            clearSession();
            actions.goTo('/login');
            return;
          case 'message': {
            const shown = { ...action, id: nextId++ };
            setMessages((list) => [...list.slice(-2), shown]);
            return;
          }
          default:
            return;
        }
      }),
    [actions],
  );

  const leave = () => {
    clearSession();
    actions.reload();
  };
  const dismiss = (id: number) => setMessages((list) => list.filter((m) => m.id !== id));

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
          <DialogTitle id="catalogue-dialog-title">{t(dialog.kind === 'kicked' ? 'console.dialog.kickedTitle' : 'console.dialog.notice')}</DialogTitle>
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
      <Stack spacing={1} sx={{ position: 'fixed', top: 16, left: '50%', transform: 'translateX(-50%)', zIndex: 1500, width: 'min(560px, 92vw)', pointerEvents: 'none' }}>
        {messages.map((m) => (
          <Snackbar key={m.id} open autoHideDuration={m.durationMs} onClose={(_, reason) => reason !== 'clickaway' && dismiss(m.id)} sx={{ position: 'static', transform: 'none', pointerEvents: 'auto' }}>
            <Alert severity={m.messageKey === 'error.busy' || m.messageKey === 'error.exportTooFrequent' ? 'warning' : 'error'} variant="filled" role="alert" data-testid="error-message" onClose={m.closable ? () => dismiss(m.id) : undefined} sx={{ width: '100%' }}>
              {m.text ?? t(m.messageKey ?? '', m.messageArgs)}
            </Alert>
          </Snackbar>
        ))}
      </Stack>
    </>
  );
}

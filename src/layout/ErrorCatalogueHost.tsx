import { useEffect, useState } from 'react';
import { onCatalogueAction } from '../api';
import { useTranslate } from 'ra-core';
import { clearSession, setState } from '../state/clientState';
import type { CatalogueDialog, ShownMessage as Shown } from './ErrorCatalogueView';

/**
 * Carries out the error catalogue of docs/requirements.md §8 on screen: the duplicate-login confirm, the
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

/**
 * The dialogs and messages themselves (MUI Dialog, Snackbar, Alert) are a chunk of their own,
 * fetched as soon as the host is mounted: the login form does not wait for them. What arrives
 * before they are here is kept and shown when they are.
 */
let View: typeof import('./ErrorCatalogueView').CatalogueView | null = null;
export const preloadCatalogueView = (): Promise<void> =>
  import('./ErrorCatalogueView').then((m) => {
    View = m.CatalogueView;
  });

let nextId = 1;

export function ErrorCatalogueHost({ actions = browserActions }: { actions?: PageActions }) {
  const t = useTranslate();
  const [dialog, setDialog] = useState<CatalogueDialog | null>(null);
  const [messages, setMessages] = useState<Shown[]>([]);
  const [, setViewLoaded] = useState(View !== null);

  useEffect(() => {
    if (View) return;
    let live = true;
    void preloadCatalogueView().then(() => live && setViewLoaded(true));
    return () => {
      live = false;
    };
  }, []);

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

  if (!View || (!dialog && messages.length === 0)) return null;
  return <View t={t} dialog={dialog} messages={messages} onLeave={leave} onDismiss={dismiss} />;
}

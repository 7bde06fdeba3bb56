import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { emitCatalogueAction } from '../../src/api';
import { ConsoleI18nProvider } from '../../src/i18n/I18nContext';
import { ErrorCatalogueHost, preloadCatalogueView } from '../../src/layout/ErrorCatalogueHost';
import { getState, restoreState, setLanguage, setToken } from '../../src/state/clientState';

function setup() {
  const actions = { reload: vi.fn(), goTo: vi.fn() };
  render(
    <ConsoleI18nProvider>
      <ErrorCatalogueHost actions={actions} />
    </ConsoleI18nProvider>,
  );
  return actions;
}

// First in the file: the view's chunk is not loaded yet, as on a fresh login page.
describe('the error catalogue before its view has loaded', () => {
  it('keeps a message that arrives before the dialogs and messages chunk, and shows it once it is there', async () => {
    restoreState();
    setup();
    act(() => emitCatalogueAction({ kind: 'message', text: 'wrong password', closable: true, durationMs: 5000 }));
    expect(await screen.findByRole('alert')).toHaveTextContent('wrong password');
  });
});

describe('the error catalogue on screen (docs/requirements.md §8)', () => {
  beforeAll(() => preloadCatalogueView());
  beforeEach(() => {
    restoreState();
    setToken('T');
  });

  it('-24: a dialog with Login Again that clears the token and reloads', () => {
    setLanguage('en');
    const actions = setup();
    act(() => emitCatalogueAction({ kind: 'kicked', messageKey: 'error.loggedInElsewhere' }));
    expect(screen.getByTestId('kicked-dialog')).toHaveTextContent(
      'The same account can only be logged in on one terminal at the same time. Your account has been logged out. Please log in again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Login Again' }));
    expect(getState().token).toBeNull();
    expect(actions.reload).toHaveBeenCalledTimes(1);
  });

  it('-24: dismissing the dialog also clears the token and reloads', () => {
    const actions = setup();
    act(() => emitCatalogueAction({ kind: 'kicked', messageKey: 'error.loggedInElsewhere' }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(getState().token).toBeNull();
    expect(actions.reload).toHaveBeenCalledTimes(1);
  });

  it('-124/-125: a confirm dialog, reload on confirm', () => {
    const actions = setup();
    act(() => emitCatalogueAction({ kind: 'confirmReload', messageKey: 'error.kickedOut' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('该账号已在其他地方登录，您已被登出');
    expect(actions.reload).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(actions.reload).toHaveBeenCalledTimes(1);
  });

  it('-26: sets the login-again flag; without a user name: reload', () => {
    const actions = setup();
    act(() => emitCatalogueAction({ kind: 'relogin' }));
    expect(getState().relogin).toBe(true);
    act(() => emitCatalogueAction({ kind: 'reload' }));
    expect(actions.reload).toHaveBeenCalledTimes(1);
  });

  it('-100/-101: their messages, without a close button, gone after 5 s', () => {
    vi.useFakeTimers();
    try {
      setup();
      act(() => emitCatalogueAction({ kind: 'message', messageKey: 'error.busy', closable: false, durationMs: 5000 }));
      expect(screen.getByRole('alert')).toHaveTextContent('服务器繁忙，请稍后再试');
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
      act(() => vi.advanceTimersByTime(4900));
      expect(screen.queryByRole('alert')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(5000));
      expect(screen.queryByText('服务器繁忙，请稍后再试')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('other codes: the server text with a close button', () => {
    setup();
    act(() => emitCatalogueAction({ kind: 'message', text: '输入有误 (name: 用户名不能为空)', closable: true, durationMs: 5000 }));
    expect(screen.getByRole('alert')).toHaveTextContent('输入有误 (name: 用户名不能为空)');
    fireEvent.click(screen.getByRole('button'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('token errors: clear the session and go to the login page', () => {
    const actions = setup();
    act(() => emitCatalogueAction({ kind: 'toLogin' }));
    expect(getState().token).toBeNull();
    expect(actions.goTo).toHaveBeenCalledWith('/login');
  });
});

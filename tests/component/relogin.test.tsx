import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ReloginDialog } from '../../src/layout/ReloginDialog';
import { getState, restoreState, setState, setToken } from '../../src/state/clientState';
import { mockApi, ok } from '../console/helpers';
import { renderAt } from './render';

describe('the login-again dialog (docs/requirements.md §2)', () => {
  beforeEach(() => {
    restoreState();
    setToken('OLD');
    setState({ name: 'neo', id: 3, roles: ['2'], permissionLevel: '2', relogin: true });
  });

  it('is hidden until the login-again flag is set', () => {
    setState({ relogin: false });
    renderAt('/system/user', <ReloginDialog leave={vi.fn()} />);
    expect(screen.queryByTestId('relogin-dialog')).not.toBeInTheDocument();
  });

  it('shows the read-only user name, a password with show/hide and a disabled auto-login box', () => {
    renderAt('/system/user', <ReloginDialog leave={vi.fn()} />);
    expect(screen.getByTestId('relogin-dialog')).toBeInTheDocument();
    expect(screen.getByText('操作超时，请重新登录')).toBeInTheDocument();
    expect(screen.getByTestId('relogin-name')).toHaveValue('neo');
    expect(screen.getByTestId('relogin-name')).toHaveAttribute('readonly');
    const password = screen.getByTestId('relogin-password');
    expect(password).toHaveAttribute('type', 'password');
    fireEvent.click(screen.getByLabelText('显示密码'));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('checkbox')).toBeDisabled();
    expect(screen.getByTestId('relogin-submit')).toHaveTextContent('登录');
    expect(screen.getByTestId('relogin-back')).toHaveTextContent('返回登录页');
  });

  it('Enter in the password logs in, clears the flag and returns to the page through /redirect', async () => {
    const { calls } = mockApi(
      (path) =>
        path === '/users/login'
          ? ok({ token: 'NEW' })
          : path === '/users/getSelf'
            ? ok({ id: 3, name: 'neo', nickname: null, parentId: null, permissionLevel: '2' })
            : ok([]),
      { getToken: () => getState().token },
    );
    renderAt('/system/user', <ReloginDialog leave={vi.fn()} />);
    fireEvent.change(screen.getByTestId('relogin-password'), { target: { value: 'secret1' } });
    fireEvent.keyDown(screen.getByTestId('relogin-password'), { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/redirect/system/user'));
    const form = new URLSearchParams(calls[0]!.body as string);
    expect(form.get('name')).toBe('neo');
    expect(form.get('password')).toBe('secret1');
    expect(getState()).toMatchObject({ token: 'NEW', relogin: false });
    expect(screen.queryByTestId('relogin-dialog')).not.toBeInTheDocument();
  });

  it('a failed login keeps the dialog open', async () => {
    mockApi(() => ({ code: 6, msg: 'wrong' }));
    renderAt('/system/user', <ReloginDialog leave={vi.fn()} />);
    fireEvent.change(screen.getByTestId('relogin-password'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByTestId('relogin-submit'));
    await waitFor(() => expect(screen.getByTestId('relogin-submit')).not.toBeDisabled());
    expect(screen.getByTestId('relogin-dialog')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/system/user');
  });

  it('back to login logs out locally (the remembered login too) and reloads on the login page', () => {
    const leave = vi.fn();
    localStorage.setItem('autoLogin', '1');
    localStorage.setItem('rememberedName', 'neo');
    localStorage.setItem('rememberedSecret', 'aXY=.Y2lwaGVy');
    renderAt('/system/user', <ReloginDialog leave={leave} />);
    fireEvent.click(screen.getByTestId('relogin-back'));
    expect(leave).toHaveBeenCalledWith('/login');
    expect(getState()).toMatchObject({ token: null, name: null, relogin: false });
    expect(['autoLogin', 'rememberedName', 'rememberedSecret'].map((k) => localStorage.getItem(k))).toEqual([null, null, null]);
  });
});

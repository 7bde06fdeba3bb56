import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { closeAll, closeOthers, closeTab, openTab, refreshPath } from '../../src/layout/tabsModel';
import { TabsStrip } from '../../src/layout/TabsStrip';
import { getState, restoreState, setState } from '../../src/state/clientState';
import { renderAt } from './render';

describe('tab rules', () => {
  it('opens a tab once', () => {
    expect(openTab(['/a'], '/a')).toEqual(['/a']);
    expect(openTab(['/a'], '/b')).toEqual(['/a', '/b']);
  });
  it('closing the active tab goes to the last remaining tab, or / when none remain', () => {
    expect(closeTab(['/a', '/b', '/c'], '/b', '/b')).toEqual({ tabs: ['/a', '/c'], navigateTo: '/c' });
    expect(closeTab(['/a'], '/a', '/a')).toEqual({ tabs: [], navigateTo: '/' });
  });
  it('closing another tab stays', () => {
    expect(closeTab(['/a', '/b'], '/a', '/b')).toEqual({ tabs: ['/b'], navigateTo: null });
  });
  it('close others keeps one; close all goes home; refresh goes through /redirect', () => {
    expect(closeOthers(['/a', '/b', '/c'], '/b', '/a')).toEqual({ tabs: ['/b'], navigateTo: '/b' });
    expect(closeOthers(['/a', '/b'], '/a', '/a')).toEqual({ tabs: ['/a'], navigateTo: null });
    expect(closeAll()).toEqual({ tabs: [], navigateTo: '/' });
    expect(refreshPath('/system/user')).toBe('/redirect/system/user');
  });
});

describe('<TabsStrip>', () => {
  beforeEach(() => {
    restoreState();
    setState({ permissionLevel: '1', tabs: ['/dashboard', '/personal/info'] });
  });

  it('adds the current page as a tab and marks it active', () => {
    renderAt('/system/user', <TabsStrip />);
    expect(getState().tabs).toEqual(['/dashboard', '/personal/info', '/system/user']);
    expect(screen.getByTestId('tab-/system/user')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('tab-/system/user')).toHaveTextContent('用户账号');
  });

  it('closing the active tab navigates to the last remaining one', () => {
    renderAt('/system/user', <TabsStrip />);
    fireEvent.click(screen.getByTestId('tab-close-/system/user'));
    expect(screen.getByTestId('where')).toHaveTextContent('/personal/info');
    expect(getState().tabs).toEqual(['/dashboard', '/personal/info']);
  });

  it('close all goes to /', () => {
    renderAt('/personal/info', <TabsStrip />);
    fireEvent.contextMenu(screen.getByTestId('tab-/dashboard'));
    fireEvent.click(screen.getByTestId('tab-close-all'));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(getState().tabs).toEqual(['/dashboard']); // the dashboard at / opens its own tab again
  });

  it('close others from the menu keeps that tab and opens it', () => {
    renderAt('/personal/info', <TabsStrip />);
    fireEvent.contextMenu(screen.getByTestId('tab-/dashboard'));
    act(() => fireEvent.click(screen.getByTestId('tab-close-others')));
    expect(screen.getByTestId('where')).toHaveTextContent('/dashboard');
    expect(getState().tabs).toEqual(['/dashboard']);
  });

  it('refresh goes through /redirect', () => {
    renderAt('/personal/info', <TabsStrip />);
    fireEvent.contextMenu(screen.getByTestId('tab-/personal/info'));
    fireEvent.click(screen.getByTestId('tab-refresh'));
    expect(screen.getByTestId('where')).toHaveTextContent('/redirect/personal/info');
  });
});

describe('<TabsStrip> and access', () => {
  it('opens no tab for a page the level may not open', () => {
    restoreState();
    setState({ permissionLevel: '3', tabs: [] });
    renderAt('/system/user', <TabsStrip />);
    expect(getState().tabs).toEqual([]);
  });
});

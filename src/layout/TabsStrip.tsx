import { useEffect, useState, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import CloseIcon from '@mui/icons-material/Close';
import MenuItem from '@mui/material/MenuItem';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { canAccessPage } from '../navigation/access';
import { pageOf } from '../navigation/menu';
import { getState, setState } from '../state/clientState';
import { useClientState } from '../state/useClientState';
import { closeAll, closeOthers, closeTab, openTab, refreshPath, type CloseResult } from './tabsModel';

/** The tab a path belongs to: the page's own path (so /system/user/3 stays on the users tab). */
export const tabPathOf = (pathname: string): string | null => {
  if (pathname.startsWith('/redirect')) return null;
  const found = pageOf(pathname);
  return found ? (pathname === '/' ? '/dashboard' : found.page.path) : null;
};

/** Open-page tabs: refresh, close, close others, close all (right click or the tab's menu). */
export function TabsStrip() {
  const t = useTranslate();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = useClientState((s) => s.tabs);
  const active = tabPathOf(pathname);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; path: string } | null>(null);

  const level = useClientState((s) => s.permissionLevel);
  useEffect(() => {
    if (active && canAccessPage(level, active) && !getState().tabs.includes(active)) setState({ tabs: openTab(getState().tabs, active) });
  }, [active, level]);

  const apply = (result: CloseResult) => {
    setState({ tabs: result.tabs });
    if (result.navigateTo) navigate(result.navigateTo);
    setMenu(null);
  };
  const current = active ?? pathname;
  const openMenu = (event: MouseEvent<HTMLElement>, path: string) => {
    event.preventDefault();
    setMenu({ anchor: event.currentTarget, path });
  };

  return (
    <Box role="tablist" aria-label={t('console.tabs.strip')} sx={{ display: 'flex', gap: 0.5, px: 1.5, py: 0.5, overflowX: 'auto', borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      {tabs.map((path) => {
        const found = pageOf(path);
        return (
          <Chip
            key={path}
            role="tab"
            aria-selected={path === active}
            data-testid={`tab-${path}`}
            label={found ? t(found.page.titleKey) : path}
            size="small"
            color={path === active ? 'primary' : 'default'}
            variant={path === active ? 'filled' : 'outlined'}
            onClick={() => navigate(path)}
            onContextMenu={(e) => openMenu(e, path)}
            onDelete={() => apply(closeTab(getState().tabs, path, current))}
            deleteIcon={<CloseIcon aria-label={t('console.tabs.close')} data-testid={`tab-close-${path}`} />}
          />
        );
      })}
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem data-testid="tab-refresh" onClick={() => { const path = menu!.path; setMenu(null); navigate(refreshPath(path)); }}>{t('console.tabs.refresh')}</MenuItem>
        <MenuItem data-testid="tab-close" onClick={() => apply(closeTab(getState().tabs, menu!.path, current))}>{t('console.tabs.close')}</MenuItem>
        <MenuItem data-testid="tab-close-others" onClick={() => apply(closeOthers(getState().tabs, menu!.path, current))}>{t('console.tabs.closeOthers')}</MenuItem>
        <MenuItem data-testid="tab-close-all" onClick={() => apply(closeAll())}>{t('console.tabs.closeAll')}</MenuItem>
      </Menu>
    </Box>
  );
}

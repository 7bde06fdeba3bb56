import { useCallback, useEffect, useLayoutEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import CloseIcon from '@mui/icons-material/Close';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { pageTitle } from '../i18n/pageTitle';
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

/**
 * Whether a scrolling box has more to show on its left and right; follows scrolling and resizing.
 */
function useOverflow(box: RefObject<HTMLDivElement | null>, deps: unknown[]) {
  const [edges, setEdges] = useState({ before: false, after: false });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.before === before && e.after === after ? e : { before, after }));
  }, [box]);
  useLayoutEffect(measure, [measure, ...deps]);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [box, measure]);
  return edges;
}

/**
 * Open-page tabs: refresh, close, close others, close all (right click or the tab's menu). The
 * strip scrolls inside itself (arrows, wheel, swipe) and never widens the page; the active tab
 * is scrolled into view.
 */
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
  const strip = useRef<HTMLDivElement>(null);
  const { before, after } = useOverflow(strip, [tabs.length, t]);
  useEffect(() => {
    const el = strip.current;
    const tab =
      active && el
        ? Array.from(el.children).find((c): c is HTMLElement => c instanceof HTMLElement && c.dataset.testid === `tab-${active}`)
        : undefined;
    if (!el || !tab) return;
    const left = tab.offsetLeft - el.offsetLeft;
    if (left < el.scrollLeft) el.scrollLeft = left - 8;
    else if (left + tab.offsetWidth > el.scrollLeft + el.clientWidth) el.scrollLeft = left + tab.offsetWidth - el.clientWidth + 8;
  }, [active, tabs.length]);
  const scrollBy = (direction: 1 | -1) => {
    const el = strip.current;
    if (el) el.scrollBy({ left: direction * Math.max(120, el.clientWidth * 0.7), behavior: 'smooth' });
  };
  const arrowSx = { flexShrink: 0, borderRadius: 1, py: 0.25, px: 0.25 };
  const openMenu = (event: MouseEvent<HTMLElement>, path: string) => {
    event.preventDefault();
    setMenu({ anchor: event.currentTarget, path });
  };

  return (
    <Box
      data-testid="tabs-strip"
      sx={{
        display: 'flex',
        alignItems: 'center',
        minWidth: 0,
        maxWidth: '100%',
        px: 0.5,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      {(before || after) && (
        <IconButton
          size="small"
          sx={arrowSx}
          disabled={!before}
          onClick={() => scrollBy(-1)}
          aria-label={t('console.layout.tabsBack')}
          data-testid="tabs-back"
        >
          <ChevronLeftIcon fontSize="small" />
        </IconButton>
      )}
      <Box
        ref={strip}
        role="tablist"
        aria-label={t('console.tabs.strip')}
        sx={{
          display: 'flex',
          gap: 0.5,
          px: 1,
          py: 0.5,
          flex: 1,
          minWidth: 0,
          overflowX: 'auto',
          overscrollBehaviorX: 'contain',
          scrollbarWidth: 'none',
          '&::-webkit-scrollbar': { display: 'none' },
          '& > .MuiChip-root': { flexShrink: 0 },
        }}
      >
        {tabs.map((path) => {
          const found = pageOf(path);
          return (
            <Chip
              key={path}
              role="tab"
              aria-selected={path === active}
              data-testid={`tab-${path}`}
              label={found ? pageTitle(t, found.page.titleKey) : path}
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
      </Box>
      {(before || after) && (
        <IconButton
          size="small"
          sx={arrowSx}
          disabled={!after}
          onClick={() => scrollBy(1)}
          aria-label={t('console.layout.tabsForward')}
          data-testid="tabs-forward"
        >
          <ChevronRightIcon fontSize="small" />
        </IconButton>
      )}
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem
          data-testid="tab-refresh"
          onClick={() => {
            const path = menu!.path;
            setMenu(null);
            navigate(refreshPath(path));
          }}
        >
          {t('console.tabs.refresh')}
        </MenuItem>
        <MenuItem data-testid="tab-close" onClick={() => apply(closeTab(getState().tabs, menu!.path, current))}>
          {t('console.tabs.close')}
        </MenuItem>
        <MenuItem data-testid="tab-close-others" onClick={() => apply(closeOthers(getState().tabs, menu!.path, current))}>
          {t('console.tabs.closeOthers')}
        </MenuItem>
        <MenuItem data-testid="tab-close-all" onClick={() => apply(closeAll())}>
          {t('console.tabs.closeAll')}
        </MenuItem>
      </Menu>
    </Box>
  );
}

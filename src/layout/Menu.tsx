import { useMemo, useState } from 'react';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import { useTheme } from '@mui/material/styles';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useSidebarState } from 'react-admin';
import { Link, useLocation } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { pageTitle } from '../i18n/pageTitle';
import { DASHBOARD, menuFor, type PageEntry } from '../navigation/menu';
import { useClientState } from '../state/useClientState';
import { SidebarLogo } from './SidebarLogo';

function Item({ page, open, nested }: { page: PageEntry; open: boolean; nested?: boolean }) {
  const t = useTranslate();
  const { pathname } = useLocation();
  const Icon = page.icon;
  const selected = pathname === page.path || pathname.startsWith(`${page.path}/`) || (page.path === DASHBOARD.path && pathname === '/');
  const button = (
    <ListItemButton
      component={Link}
      to={page.path}
      selected={selected}
      data-testid={`menu-${page.path}`}
      sx={{ pl: open && nested ? 4 : 2 }}
    >
      <ListItemIcon sx={{ minWidth: 36, color: 'inherit' }}>
        <Icon fontSize="small" />
      </ListItemIcon>
      {open && <ListItemText primary={pageTitle(t, page.titleKey)} />}
    </ListItemButton>
  );
  return open ? (
    button
  ) : (
    <Tooltip title={pageTitle(t, page.titleKey)} placement="right">
      {button}
    </Tooltip>
  );
}

/** The sidebar menu: the groups the user's level may see (built once per level), icons, the logo. */
export function Menu() {
  const t = useTranslate();
  const theme = useTheme();
  const [open] = useSidebarState();
  const level = useClientState((s) => s.permissionLevel);
  const groups = useMemo(() => menuFor(level), [level]);
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const isExpanded = (path: string) => expanded[path] ?? pathname.startsWith(`${path}/`);
  const { menuBg, text, hover } = theme.console;
  return (
    <List
      component="nav"
      dense
      sx={{
        bgcolor: menuBg,
        color: text,
        minHeight: '100%',
        py: 0,
        width: open ? 240 : 55,
        transition: 'width 195ms',
        '& .MuiListItemButton-root:hover': { bgcolor: hover },
        '& .MuiListItemButton-root.Mui-selected': { bgcolor: hover, color: '#fff', borderLeft: `3px solid ${theme.palette.primary.light}` },
      }}
    >
      <SidebarLogo open={open} />
      <Item page={DASHBOARD} open={open} />
      {groups.map((group) => {
        const Icon = group.icon;
        return (
          <div key={group.path}>
            <ListItemButton
              data-testid={`menu-${group.path}`}
              onClick={() => setExpanded((e) => ({ ...e, [group.path]: !isExpanded(group.path) }))}
            >
              <ListItemIcon sx={{ minWidth: 36, color: 'inherit' }}>
                <Icon fontSize="small" />
              </ListItemIcon>
              {open && <ListItemText primary={pageTitle(t, group.titleKey)} />}
              {open && (isExpanded(group.path) ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />)}
            </ListItemButton>
            <Collapse in={isExpanded(group.path) || !open} timeout="auto" unmountOnExit>
              {group.children.map((page) => (
                <Item key={page.path} page={page} open={open} nested />
              ))}
            </Collapse>
          </div>
        );
      })}
    </List>
  );
}

import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AccountCircle from '@mui/icons-material/AccountCircle';
import DashboardIcon from '@mui/icons-material/Dashboard';
import KeyIcon from '@mui/icons-material/Key';
import BadgeIcon from '@mui/icons-material/Badge';
import LogoutIcon from '@mui/icons-material/Logout';
import { useLogout } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { useClientState } from '../state/useClientState';
import { ThemeDialog, ThemeMenuItem, useThemeDialog } from './ThemeMenuItem';

/** The user menu: dashboard, password change, basic info, log out. */
export function UserMenu() {
  const t = useTranslate();
  const navigate = useNavigate();
  const logout = useLogout();
  const name = useClientState((s) => s.nickName || s.name || '');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const themeDialog = useThemeDialog();
  const go = (path: string) => {
    setAnchor(null);
    navigate(path);
  };
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircle />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={name ? t('console.layout.userMenuOf', { name }) : t('console.nav.userMenu')}
        aria-haspopup="menu"
        data-testid="user-menu"
        sx={{ textTransform: 'none', minWidth: 0, flexShrink: 0, '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}
      >
        <Box
          component="span"
          sx={{
            display: { xs: 'none', sm: 'inline-block' },
            maxWidth: 160,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {name}
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => go('/')}>
          <ListItemIcon>
            <DashboardIcon fontSize="small" />
          </ListItemIcon>
          {t('console.nav.dashboard')}
        </MenuItem>
        <MenuItem onClick={() => go('/personal/password')}>
          <ListItemIcon>
            <KeyIcon fontSize="small" />
          </ListItemIcon>
          {t('console.nav.password')}
        </MenuItem>
        <MenuItem onClick={() => go('/personal/info')}>
          <ListItemIcon>
            <BadgeIcon fontSize="small" />
          </ListItemIcon>
          {t('console.nav.info')}
        </MenuItem>
        <ThemeMenuItem
          onOpen={() => {
            setAnchor(null);
            themeDialog.show();
          }}
        />
        <MenuItem
          data-testid="logout"
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('console.nav.logout')}
        </MenuItem>
      </Menu>
      <ThemeDialog open={themeDialog.open} onClose={themeDialog.hide} />
    </>
  );
}

import MuiAppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useSidebarState } from 'react-admin';
import { useTranslate } from 'ra-core';
import { setSidebarOpen } from '../state/clientState';
import { Bell } from './Bell';
import { LanguageSelect } from './LanguageSelect';
import { TestBadge } from './TestBadge';
import { TimeZoneSelect } from './TimeZoneSelect';
import { UserMenu } from './UserMenu';
import { pictureForDay } from './weekdayPictures';

/** The navbar: sidebar toggle, title, weekday picture, test badge, bell, time zone, language, user. */
export function AppBar() {
  const t = useTranslate();
  const [open, setOpen] = useSidebarState();
  // In mobile mode the drawer's state is not kept: it closes on every route change.
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const toggle = () => {
    setOpen(!open);
    if (!mobile) setSidebarOpen(!open);
  };
  return (
    <MuiAppBar position="fixed" color="primary" elevation={1}>
      <Toolbar variant="dense" sx={{ gap: { xs: 0.5, sm: 1 }, minHeight: 48, px: { xs: 0.5, sm: 2 }, minWidth: 0 }}>
        <IconButton
          color="inherit"
          aria-label={t('console.nav.toggleSidebar')}
          data-testid="sidebar-toggle"
          aria-expanded={open}
          onClick={toggle}
        >
          <MenuIcon />
        </IconButton>
        <Typography variant="subtitle1" component="div" noWrap sx={{ fontWeight: 600, display: { xs: 'none', sm: 'block' } }}>
          {t('console.title')}
        </Typography>
        <Box
          component="img"
          src={pictureForDay()}
          alt=""
          data-testid="weekday-picture"
          sx={{ height: 28, display: { xs: 'none', md: 'block' } }}
        />
        <TestBadge />
        <Box sx={{ flex: 1, minWidth: 0 }} />
        <Bell />
        <TimeZoneSelect />
        <LanguageSelect />
        <UserMenu />
      </Toolbar>
    </MuiAppBar>
  );
}

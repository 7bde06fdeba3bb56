import { useEffect, useRef, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { Layout as RaLayout, useLocaleState, useSidebarState } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useClientState } from '../state/useClientState';
import { AppBar } from './AppBar';
import { Breadcrumb } from './Breadcrumb';
import { Menu } from './Menu';
import { ReloginDialog } from './ReloginDialog';
import { RouteGuard } from './RouteGuard';
import { Sidebar } from './Sidebar';
import { TabsStrip } from './TabsStrip';
import { LiveUpdates } from '../live/LiveUpdates';

/** Keeps react-admin's locale and sidebar in step with the client state (the one source). */
function StateSync() {
  const language = useClientState((s) => s.language);
  const sidebarOpen = useClientState((s) => s.sidebarOpen);
  const [locale, setLocale] = useLocaleState();
  const [, setOpen] = useSidebarState();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  const { pathname } = useLocation();
  useEffect(() => {
    if (locale !== language) setLocale(language);
  }, [language, locale, setLocale]);
  // The server writes fault names, alarm texts and its messages in the request's language: on a
  // switch every cached answer is from the other language, so all of them are read again (the ones
  // on screen at once, the others when next shown).
  const queryClient = useQueryClient();
  const shownLanguage = useRef(language);
  useEffect(() => {
    if (shownLanguage.current === language) return;
    shownLanguage.current = language;
    void queryClient.invalidateQueries();
  }, [language, queryClient]);
  useEffect(() => {
    if (!mobile) setOpen(sidebarOpen);
  }, [mobile, sidebarOpen, setOpen]);
  // Mobile mode (under 1024 px): the sidebar closes on every route change.
  useEffect(() => {
    if (mobile) setOpen(false);
  }, [mobile, pathname, setOpen]);
  return null;
}

/** react-admin's layout with our navbar and menu, plus breadcrumb, tabs and the session guard. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={AppBar}
      menu={Menu}
      sidebar={Sidebar}
      sx={{
        // minWidth 0 (react-admin's root is min-width: fit-content): the page never grows with what
        // it holds (a long tabs strip, a wide table); those scroll inside themselves and the page
        // stays as wide as the window.
        minWidth: 0,
        '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
        '& .RaLayout-content': { px: 0, pt: 0, minWidth: 0 },
        '& .RaSidebar-fixed': { bgcolor: (t: Theme) => t.console.menuBg },
      }}
    >
      <StateSync />
      <LiveUpdates />
      <TabsStrip />
      <Breadcrumb />
      <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2 }}>
        <RouteGuard>{children}</RouteGuard>
      </Box>
      <ReloginDialog />
    </RaLayout>
  );
}

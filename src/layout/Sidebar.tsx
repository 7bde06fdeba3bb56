import { useEffect, useState } from 'react';
import Drawer from '@mui/material/Drawer';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme, type Theme } from '@mui/material/styles';
import { Sidebar as RaSidebar, useSidebarState, type SidebarProps } from 'react-admin';

/** The width of the open menu (Menu.tsx draws it). */
export const MENU_WIDTH = 240;

/**
 * Mobile mode (docs/requirements.md §2): under the md breakpoint (1024 px) the menu is a temporary drawer over the
 * page (closed on every route change by the layout), not the icon rail; from 1024 px up,
 * react-admin's docked sidebar.
 */
export function Sidebar(props: SidebarProps) {
  const theme = useTheme();
  const mobile = useMediaQuery((t: Theme) => t.breakpoints.down('md'), { noSsr: true });
  const [open, setOpen] = useSidebarState();
  // The drawer starts closed: the desktop's open state is put aside by the layout (StateSync) in
  // the same first commit; opening and closing at once would leave MUI's modal half-open.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!mobile) return <RaSidebar {...props} />;
  return (
    <Drawer
      variant="temporary"
      open={ready && open}
      onClose={() => setOpen(false)}
      ModalProps={{ keepMounted: true }}
      data-testid="menu-drawer"
      slotProps={{ paper: { sx: { width: MENU_WIDTH, maxWidth: '85vw', bgcolor: theme.console.menuBg } } }}
    >
      {props.children}
    </Drawer>
  );
}

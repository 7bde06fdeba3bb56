import { useState } from 'react';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import PaletteIcon from '@mui/icons-material/Palette';
import { useTranslate } from 'ra-core';
import { PalettePicker } from './PalettePicker';
import { useConsoleSettings } from './useConsoleSettings';

/**
 * "Theme" in the user menu: the palette picker every level can reach (the preference page with
 * backgrounds, size and system settings is level 1 only). Mounting it also loads the console
 * settings the server keeps for everyone (bell interval, default size).
 */
export function ThemeMenuItem({ onOpen }: { onOpen: () => void }) {
  const t = useTranslate();
  return (
    <MenuItem data-testid="theme-menu" onClick={onOpen}>
      <ListItemIcon>
        <PaletteIcon fontSize="small" />
      </ListItemIcon>
      {t('support.themeMenu.open')}
    </MenuItem>
  );
}

export function ThemeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useTranslate();
  useConsoleSettings();
  return (
    <Dialog open={open} onClose={onClose} data-testid="theme-dialog">
      <DialogTitle>{t('support.themeMenu.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('support.preference.themeHint')}
        </Typography>
        <PalettePicker compact />
      </DialogContent>
    </Dialog>
  );
}

/** The dialog's open state, for the user menu. */
export function useThemeDialog() {
  const [open, setOpen] = useState(false);
  return { open, show: () => setOpen(true), hide: () => setOpen(false) };
}

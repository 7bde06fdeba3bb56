import { useState } from 'react';
import Box from '@mui/material/Box';
import { useTranslate } from 'ra-core';
import { useClientState } from '../state/useClientState';

export const DEFAULT_LOGO = '/logo.svg';

/** The enterprise logo (fileType 1); the default logo when there is none or it fails to load. */
export function SidebarLogo({ open }: { open: boolean }) {
  const t = useTranslate();
  const logo = useClientState((s) => s.icons.logo);
  const [failed, setFailed] = useState<string | null>(null);
  const src = logo && failed !== logo ? logo : DEFAULT_LOGO;
  return (
    <Box sx={{ height: 48, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 1, overflow: 'hidden' }}>
      <Box
        component="img"
        src={src}
        alt={t('console.nav.logo')}
        data-testid="sidebar-logo"
        onError={() => setFailed(logo)}
        sx={
          open
            ? { maxHeight: 35, maxWidth: 160, objectFit: 'contain' }
            : { width: 35, height: 35, objectFit: 'cover', objectPosition: 'left' }
        }
      />
    </Box>
  );
}

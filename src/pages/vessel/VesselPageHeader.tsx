import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { VesselLinks } from './VesselLinks';
import { VesselPicker } from './VesselPicker';

type LinkKey = Parameters<typeof VesselLinks>[0]['current'];

/** Title, vessel picker and links to the vessel's other pages; asks for a vessel when none is chosen. */
export function VesselPageHeader({
  title,
  id,
  onPick,
  current,
  extra,
  requireVessel = true,
}: {
  title: string;
  id: number | null;
  onPick: (id: number | null) => void;
  current: LinkKey;
  extra?: ReactNode;
  requireVessel?: boolean;
}) {
  const t = useTranslate();
  return (
    <Stack spacing={1.5} sx={{ mb: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
        <Typography variant="h6" component="h1" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
          {title}
        </Typography>
        <VesselPicker value={id} onChange={onPick} sx={{ minWidth: 240, flex: { md: '1 1 280px' }, maxWidth: { md: 420 } }} />
        {extra}
      </Stack>
      {id ? (
        <VesselLinks id={id} current={current} />
      ) : (
        requireVessel && (
          <Alert severity="info" data-testid="choose-vessel">
            {t('vessel.picker.choose')}
          </Alert>
        )
      )}
    </Stack>
  );
}

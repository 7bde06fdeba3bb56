import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { AVAILABLE_BANDS, SNR_BANDS } from '../../domain/coverage';
import { BAND_COLOURS, TOO_FEW_COLOUR } from './coverageLayer';

const Swatch = ({ colour, hollow = false }: { colour: string; hollow?: boolean }) => (
  <Box
    component="span"
    aria-hidden
    sx={{ width: 14, height: 14, flexShrink: 0, borderRadius: 0.5, border: `1px ${hollow ? 'dashed' : 'solid'} ${colour}`, bgcolor: hollow ? 'transparent' : colour, opacity: hollow ? 1 : 0.7 }}
  />
);

/** What the cells' colours mean: the median SNR's bands (a link layer: the available share's), and the grey outline of a cell with too few reports. */
export function CoverageLegend({ minSamples, linkLayer = false }: { minSamples: number; linkLayer?: boolean }) {
  const t = useTranslate();
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }} data-testid="coverage-legend">
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t(linkLayer ? 'vessel.coverage.legendAvailable' : 'vessel.coverage.legend')}
      </Typography>
      {(linkLayer ? AVAILABLE_BANDS : SNR_BANDS).map((b) => (
        <Stack key={b.key} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
          <Swatch colour={BAND_COLOURS[b.key]} />
          <Typography variant="body2">{t(`vessel.coverage.${linkLayer ? 'availableBands' : 'bands'}.${b.key}`)}</Typography>
        </Stack>
      ))}
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
        <Swatch colour={TOO_FEW_COLOUR} hollow />
        <Typography variant="body2">{t('vessel.coverage.tooFew', { n: minSamples })}</Typography>
      </Stack>
    </Stack>
  );
}

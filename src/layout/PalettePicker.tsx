import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Tooltip from '@mui/material/Tooltip';
import CheckIcon from '@mui/icons-material/Check';
import { useTranslate } from 'ra-core';
import { setTheme } from '../state/clientState';
import { useClientState } from '../state/useClientState';
import { PALETTES } from '../theme/palettes';
import { readableTextOn } from '../theme/contrast';

/**
 * The eight preset palettes of docs/requirements.md §9 as swatches (main colour, menu background, table
 * header, hover); a click restyles the console at once and is remembered (clientState.setTheme).
 */
export function PalettePicker({ compact = false }: { compact?: boolean }) {
  const t = useTranslate();
  const current = useClientState((s) => s.theme).toLowerCase();
  return (
    <Box
      role="radiogroup"
      aria-label={t('support.preference.theme')}
      sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: compact ? 'repeat(4, 56px)' : 'repeat(auto-fill, minmax(150px, 1fr))' }}
    >
      {PALETTES.map((p, i) => {
        const selected = p.primary.toLowerCase() === current;
        const label = t('support.preference.palette', { n: i + 1 });
        return (
          <Tooltip key={p.primary} title={`${label} ${p.primary}`}>
            <ButtonBase
              role="radio"
              aria-checked={selected}
              aria-label={label}
              data-testid={`palette-${i + 1}`}
              onClick={() => setTheme(p.primary)}
              sx={{
                display: 'block',
                borderRadius: 1,
                overflow: 'hidden',
                border: 2,
                borderColor: selected ? p.primary : 'divider',
                textAlign: 'left',
                position: 'relative',
              }}
            >
              <Box sx={{ display: 'flex', height: compact ? 40 : 64 }}>
                <Box
                  sx={{
                    width: '30%',
                    bgcolor: p.menuBg,
                    display: 'flex',
                    flexDirection: 'column',
                    justifyContent: 'center',
                    gap: 0.5,
                    px: 0.5,
                  }}
                >
                  <Box sx={{ height: 4, bgcolor: p.text, opacity: 0.7, borderRadius: 1 }} />
                  <Box sx={{ height: 4, bgcolor: p.hover, borderRadius: 1 }} />
                  <Box sx={{ height: 4, bgcolor: p.text, opacity: 0.7, borderRadius: 1 }} />
                </Box>
                <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
                  <Box sx={{ height: '30%', bgcolor: p.primary }} />
                  <Box sx={{ height: '20%', bgcolor: p.tableHeader, mt: 0.5, mx: 0.5 }} />
                  <Box sx={{ flex: 1, bgcolor: '#fff' }} />
                </Box>
              </Box>
              {!compact && (
                <Box sx={{ px: 1, py: 0.5, fontSize: 12, display: 'flex', justifyContent: 'space-between' }}>
                  <span>{label}</span>
                  {/* The code on its own colour, in black or white by contrast (AA 4.5:1 on every swatch). */}
                  <Box
                    component="span"
                    sx={{ bgcolor: p.primary, color: readableTextOn(p.primary), borderRadius: 0.5, px: 0.5, fontFamily: 'monospace' }}
                  >
                    {p.primary}
                  </Box>
                </Box>
              )}
              {selected && (
                <CheckIcon
                  sx={{
                    position: 'absolute',
                    top: 2,
                    right: 2,
                    color: readableTextOn(p.primary),
                    fontSize: 18,
                    bgcolor: p.primary,
                    borderRadius: '50%',
                  }}
                />
              )}
            </ButtonBase>
          </Tooltip>
        );
      })}
    </Box>
  );
}

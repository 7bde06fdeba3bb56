import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { TIME_ZONES } from '../domain/constants';
import { timeZoneLabel } from '../format/date';
import { useTranslate } from 'ra-core';
import { setTimeZone } from '../state/clientState';
import { useClientState } from '../state/useClientState';

/** UTC-12..UTC+12; the default is the browser's offset; the choice is kept 30 days. */
export function TimeZoneSelect() {
  const t = useTranslate();
  const timeZone = useClientState((s) => s.timeZone);
  return (
    <TextField
      select
      value={timeZone}
      onChange={(e) => setTimeZone(Number(e.target.value))}
      aria-label={t('console.nav.timeZone')}
      slotProps={{
        htmlInput: { 'aria-label': t('console.nav.timeZone') },
        select: { SelectDisplayProps: { 'data-testid': 'tz-select', 'aria-label': t('console.nav.timeZone') } as object },
      }}
      sx={{
        minWidth: { xs: 84, sm: 108 },
        '& .MuiSelect-select': { py: 0.75, pl: 1.25 },
        '& .MuiInputBase-root': { color: 'inherit', bgcolor: 'rgba(255,255,255,0.12)' },
        '& fieldset': { border: 'none' },
        '& svg': { color: 'inherit' },
      }}
    >
      {TIME_ZONES.map((hours) => (
        <MenuItem key={hours} value={hours} data-testid={`tz-${hours}`}>
          {timeZoneLabel(hours)}
        </MenuItem>
      ))}
    </TextField>
  );
}

import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslate } from 'ra-core';
import { isApiError } from '../../api/errors';
import { useCallQuery } from '../../data/dataHooks';
import { ErrorCode } from '../../domain/errorCodes';
import { LINK_WINDOW_NAMES, type LinkWindow } from '../../domain/links';
import { timeZoneLabel } from '../../format/date';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import { LinkLanes } from './LinkLanes';
import { LinkTables } from './LinkTables';
import { LoadState } from './LoadState';

/**
 * The vessel's WAN links (GET /vessel/getLinks) over 24 h or 7 d: a lane per link with its states and
 * the spans it carried the traffic, the failovers with their reasons, the links now and each link's
 * time. A vessel that has never shown a link (no lanes) gets no section at all, nor does one whose
 * iotData feature is locked (the charts say so); once shown, a window without lanes says it is empty.
 */
export function LinkTimelineSection({ deviceId }: { deviceId: number }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const timeZone = useClientState((s) => s.timeZone);
  const [window, setWindow] = useState<LinkWindow>('24h');
  // The previous window stays drawn (under the loading bar) while the next one loads.
  const state = useCallQuery('vessel', 'getLinks', [deviceId, window], { placeholderData: keepPreviousData });
  const data = state.data;
  const hasLanes = (data?.lanes.length ?? 0) > 0;
  // Latched: switching to a window without lanes keeps the section (and its toggle) on screen.
  const [shown, setShown] = useState(false);
  if (hasLanes && !shown) setShown(true);

  if (isApiError(state.error) && state.error.code === ErrorCode.Forbidden) return null;
  // Until the first answer says the vessel has links, nothing is drawn (a vessel without links has no box); a failure is shown.
  if (!shown && !state.error) return null;

  return (
    <Paper sx={{ p: 2 }} data-testid="link-timeline" data-window={window} data-loaded={data && !state.isFetching ? 'true' : 'false'}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, mb: 1 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {t('vessel.wan.title')}
        </Typography>
        {shown && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={window}
            onChange={(_, w: LinkWindow | null) => w && setWindow(w)}
            aria-label={t('vessel.wan.window')}
          >
            {LINK_WINDOW_NAMES.map((w) => (
              <ToggleButton key={w} value={w} data-testid={`links-window-${w}`}>
                {t(`vessel.detail.windows.${w}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
      </Stack>
      <LoadState state={state} />
      {shown && data && (
        <Stack spacing={1.5}>
          <Typography variant="caption" color="text.secondary" data-testid="links-range">
            {format(data.from)} – {format(data.to)} · {t('vessel.wan.zone', { zone: timeZoneLabel(timeZone) })} ·{' '}
            {t('vessel.wan.failoverCount', { smart_count: data.failovers.length })}
          </Typography>
          {hasLanes ? (
            <LinkLanes data={data} />
          ) : (
            <Alert severity="info" data-testid="links-empty">
              {t('vessel.wan.empty')}
            </Alert>
          )}
          <LinkTables data={data} />
        </Stack>
      )}
    </Paper>
  );
}

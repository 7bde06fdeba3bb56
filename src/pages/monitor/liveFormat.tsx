import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { faultInfo } from '../../domain/faultCodes';
import { isBackupLink } from '../../domain/links';
import { timeAgo } from '../../format/timeAgo';
import { useTranslate } from 'ra-core';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useClientState } from '../../state/useClientState';
import type { DeviceLiveState } from '../../api/monitoringApi';

/** 22.30°N 114.20°E */
export function formatPosition(lat: number | null, lon: number | null): string {
  if (lat === null || lon === null) return '';
  return `${Math.abs(lat).toFixed(2)}°${lat >= 0 ? 'N' : 'S'} ${Math.abs(lon).toFixed(2)}°${lon >= 0 ? 'E' : 'W'}`;
}

export const formatHeading = (heading: number | null): string => (heading === null ? '' : `${Math.round(heading) % 360}°`);

/** "n minutes ago" in the current language. */
export function useAgo() {
  const translate = useTranslate();
  return (value: string | null, now = Date.now()) => {
    const ago = timeAgo(value, now);
    if (!ago) return '';
    return translate(`monitor.ago.${ago.unit}`, { smart_count: ago.count });
  };
}

/** The last report in the selected time zone, with "n minutes ago" under it. */
export function LastReport({ at, compact = false }: { at: string | null; compact?: boolean }) {
  const translate = useTranslate();
  const format = useDateFormatter();
  const ago = useAgo();
  if (!at)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {translate('monitor.noReport')}
      </Box>
    );
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: compact ? 'row' : 'column', gap: compact ? 1 : 0, lineHeight: 1.3 }}>
      <span>{format(at)}</span>
      <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.85em' }} data-testid="time-ago">
        {ago(at)}
      </Box>
    </Box>
  );
}

/** Active fault codes as chips with their meaning; a lost lock without a fault as its own chip. */
/** The vessel's traffic goes over a backup link now: its active link is not the router's first. */
export const isOnBackup = (link: DeviceLiveState['activeLink']) => !!link && isBackupLink(link);

/** A chip when the vessel's traffic goes over a backup link now (nothing on its primary link). */
export function BackupLinkChip({ link }: { link: DeviceLiveState['activeLink'] }) {
  const translate = useTranslate();
  if (!link || !isOnBackup(link)) return null;
  return (
    <Tooltip title={translate('monitor.onBackupHint', { id: link.linkId })}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        data-testid="monitor-backup-link"
        label={translate('monitor.onBackupLink', { link: translate(`vessel.wan.kinds.${link.kind}`) })}
        sx={{ mt: 0.25 }}
      />
    </Tooltip>
  );
}

export function FaultChips({ faults, modemLock, status }: { faults: readonly string[]; modemLock: boolean | null; status: number }) {
  const translate = useTranslate();
  const language = useClientState((s) => s.language);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {faults.map((code) => {
        const info = faultInfo(code);
        const meaning = info ? info.meaning[language] : code;
        return (
          <Tooltip key={code} title={info ? info.remedy[language] : ''}>
            <Chip
              size="small"
              color={info?.severity === 'minor' ? 'warning' : 'error'}
              variant="outlined"
              label={`${code} ${meaning}`}
              data-testid={`fault-${code}`}
              sx={{ maxWidth: 240 }}
            />
          </Tooltip>
        );
      })}
      {status !== 0 && modemLock === false && (
        <Chip size="small" color="warning" variant="outlined" label={translate('monitor.noLock')} data-testid="fault-nolock" />
      )}
    </Box>
  );
}

import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import type { BackupRunItem } from '../../domain/backupSettings';
import { formatBytes } from '../../format/bytes';
import { useDateFormatter } from '../../format/useDateFormatter';

/** The backup runs of the Backups card (BackupCard.tsx): the last run's details and the recent runs. */
export const K = 'support.preference.backup';

export function Term({ children }: { children: ReactNode }) {
  return (
    <Box component="dt" sx={{ fontSize: 14, color: 'text.secondary' }}>
      {children}
    </Box>
  );
}

function ResultChip({ run }: { run: BackupRunItem }) {
  const t = useTranslate();
  return (
    <Chip
      size="small"
      color={run.ok ? 'success' : 'error'}
      variant={run.ok ? 'outlined' : 'filled'}
      label={t(`${K}.${run.ok ? 'ok' : 'failed'}`)}
      data-testid="backup-result"
    />
  );
}

const tookSeconds = (run: BackupRunItem) => Math.max(0, Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000));

export function RunDetails({ run }: { run: BackupRunItem }) {
  const t = useTranslate();
  const format = useDateFormatter();
  const rows: [string, ReactNode][] = [
    [
      t(`${K}.time`),
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} key="time">
        <span>{format(run.startedAt)}</span>
        <ResultChip run={run} />
        <Typography variant="body2" color="text.secondary" component="span">
          {t(`${K}.kinds.${run.kind}`)}
        </Typography>
      </Stack>,
    ],
    ...(run.file
      ? [
          [
            t(`${K}.file`),
            <Box component="code" sx={{ fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }} key="file">
              {run.file}
            </Box>,
          ] as [string, ReactNode],
        ]
      : []),
    ...(run.sizeBytes !== null ? [[t(`${K}.size`), formatBytes(run.sizeBytes)] as [string, ReactNode]] : []),
    ...(run.tables !== null ? [[t(`${K}.tables`), String(run.tables)] as [string, ReactNode]] : []),
    [t(`${K}.took`), t(`${K}.seconds`, { n: tookSeconds(run) })],
  ];
  return (
    <Box data-testid="backup-last">
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.75, alignItems: 'center' }}
      >
        {rows.map(([term, value]) => (
          <Box key={term} sx={{ display: 'contents' }}>
            <Term>{term}</Term>
            <Box component="dd" sx={{ m: 0, fontSize: 14, minWidth: 0 }}>
              {value}
            </Box>
          </Box>
        ))}
      </Box>
      {run.message && (
        <Alert severity={run.ok ? 'warning' : 'error'} sx={{ mt: 1, overflowWrap: 'anywhere' }} data-testid="backup-message">
          {run.message}
        </Alert>
      )}
    </Box>
  );
}

export function RecentRuns({ runs }: { runs: BackupRunItem[] }) {
  const t = useTranslate();
  const format = useDateFormatter();
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {t(`${K}.recent`)}
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="backup-runs">
        {runs.map((run) => (
          <Box
            component="li"
            key={`${run.startedAt}-${run.kind}`}
            sx={{
              py: 0.75,
              borderTop: 1,
              borderColor: 'divider',
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              columnGap: 1.5,
              rowGap: 0.5,
              fontSize: 14,
            }}
          >
            <Box component="span" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {format(run.startedAt)}
            </Box>
            <ResultChip run={run} />
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {t(`${K}.kinds.${run.kind}`)}
            </Box>
            {run.sizeBytes !== null && <span>{formatBytes(run.sizeBytes)}</span>}
            {!run.ok && run.message && (
              <Box
                component="span"
                sx={{
                  color: 'error.main',
                  fontSize: 13,
                  flexBasis: '100%',
                  minWidth: 0,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
                title={run.message}
              >
                {run.message}
              </Box>
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

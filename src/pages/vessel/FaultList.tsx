import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FaultText } from '../../api/vesselApi';
import { useDateFormatter } from '../../format/useDateFormatter';
import { useTranslate } from 'ra-core';

const SEVERITY_COLOR = { critical: 'error', major: 'warning', minor: 'info' } as const;

/** Faults with their meaning and remedy; with times when they come from the window's alarms. */
export function FaultList({
  faults,
  testId,
}: {
  faults: (FaultText & { raisedAt?: string; clearedAt?: string | null })[];
  testId: string;
}) {
  const t = useTranslate();
  const format = useDateFormatter();
  if (!faults.length)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={testId}>
        {t('vessel.detail.noFaults')}
      </Typography>
    );
  return (
    <Stack spacing={1} data-testid={testId}>
      {faults.map((f, i) => (
        <Stack
          key={`${f.code}-${f.raisedAt ?? i}`}
          spacing={0.25}
          sx={{ borderLeft: 3, borderColor: `${SEVERITY_COLOR[f.severity as keyof typeof SEVERITY_COLOR] ?? 'info'}.main`, pl: 1.5 }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Chip size="small" label={f.code} color={SEVERITY_COLOR[f.severity as keyof typeof SEVERITY_COLOR] ?? 'default'} />
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {f.meaning}
            </Typography>
            {f.raisedAt && (
              <Typography variant="caption" color="text.secondary">
                {t('vessel.detail.raisedAt')} {format(f.raisedAt)} ·{' '}
                {f.clearedAt ? `${t('vessel.detail.clearedAt')} ${format(f.clearedAt)}` : t('vessel.detail.active')}
              </Typography>
            )}
          </Stack>
          {f.remedy && (
            <Typography variant="body2" color="text.secondary">
              {t('vessel.detail.remedy')}: {f.remedy}
            </Typography>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

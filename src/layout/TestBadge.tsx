import Chip from '@mui/material/Chip';
import { isProduction } from '../config';
import { useTranslate } from 'ra-core';

/** The red badge when the console does not run in production. */
export function TestBadge() {
  const t = useTranslate();
  if (isProduction()) return null;
  return (
    <Chip
      label={t('console.nav.testBadge')}
      size="small"
      data-testid="test-badge"
      sx={{ bgcolor: '#d32f2f', color: '#fff', fontWeight: 700 }}
    />
  );
}

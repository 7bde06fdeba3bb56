import Chip from '@mui/material/Chip';
import { isProduction } from '../config';
import { useT } from '../i18n/I18nContext';

/** The red badge when the console does not run in production. */
export function TestBadge() {
  const { t } = useT();
  if (isProduction()) return null;
  return <Chip label={t('console.nav.testBadge')} size="small" data-testid="test-badge" sx={{ bgcolor: '#d32f2f', color: '#fff', fontWeight: 700 }} />;
}

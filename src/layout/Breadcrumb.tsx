import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { pageTitle } from '../i18n/pageTitle';
import { DASHBOARD, pageOf } from '../navigation/menu';

/** Dashboard > group > page, from the menu catalogue. */
export function Breadcrumb() {
  const t = useTranslate();
  const { pathname } = useLocation();
  const found = pageOf(pathname);
  const trail: { label: string; to?: string }[] = [{ label: pageTitle(t, DASHBOARD.titleKey), to: '/' }];
  if (found && found.page !== DASHBOARD) {
    if (found.group) trail.push({ label: pageTitle(t, found.group.titleKey) });
    trail.push({ label: pageTitle(t, found.page.titleKey) });
  }
  return (
    <Breadcrumbs aria-label={t('console.nav.breadcrumb')} data-testid="breadcrumb" sx={{ fontSize: 13, px: 2, py: 0.5 }}>
      {trail.map((step, i) =>
        step.to && i < trail.length - 1 ? (
          <Link key={i} component={RouterLink} to={step.to} underline="hover" color="inherit">
            {step.label}
          </Link>
        ) : (
          <Typography key={i} color={i === trail.length - 1 ? 'text.primary' : 'text.secondary'} sx={{ fontSize: 13 }}>
            {step.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}

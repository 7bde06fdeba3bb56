import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useLocation } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { pageOf } from '../navigation/menu';

/** A page a later issue builds: its title and a note, so the menu and the route exist already. */
export default function PlaceholderPage() {
  const t = useTranslate();
  const { pathname } = useLocation();
  const found = pageOf(pathname);
  return (
    <Paper sx={{ p: 3 }} data-testid="placeholder-page">
      <Typography variant="h6" component="h1" sx={{ mb: 1 }}>{found ? t(found.page.titleKey) : pathname}</Typography>
      <Typography color="text.secondary">{t('console.page.placeholder')}</Typography>
    </Paper>
  );
}

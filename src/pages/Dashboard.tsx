import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useT } from '../i18n/I18nContext';
import { backgroundIndex, HOME_BACKGROUNDS } from '../pictures/backgrounds';
import { useClientState } from '../state/useClientState';

/** The homepage (/dashboard) on one of the six home backgrounds (homep1 by default). */
export default function Dashboard() {
  const { t } = useT();
  const name = useClientState((s) => s.nickName || s.name || '');
  const level = useClientState((s) => s.permissionLevel);
  return (
    <Box data-testid="dashboard" sx={{ minHeight: 'calc(100vh - 140px)', borderRadius: 1, p: { xs: 2, sm: 4 }, backgroundImage: HOME_BACKGROUNDS[backgroundIndex('homeBackground')], backgroundSize: 'cover' }}>
      <Paper elevation={0} sx={{ p: 3, maxWidth: 560, bgcolor: 'rgba(255,255,255,0.85)' }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, mb: 1 }}>{t('console.page.welcome', { name })}</Typography>
        {level && <Typography color="text.secondary" sx={{ mb: 1 }}>{t(`console.level.${level}`)}</Typography>}
        <Typography>{t('console.page.welcomeText')}</Typography>
      </Paper>
    </Box>
  );
}

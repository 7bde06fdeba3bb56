import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'ra-core';

/** 401 and 404, each with a way back (previous page, or home). */
export function ErrorPage({ code }: { code: 401 | 404 }) {
  const t = useTranslate();
  const navigate = useNavigate();
  const prefix = code === 401 ? 'console.page.unauthorized' : 'console.page.notFound';
  return (
    <Box data-testid={`error-${code}`} sx={{ textAlign: 'center', py: 8 }}>
      <Typography variant="h1" component="h1" sx={{ fontWeight: 700, color: 'primary.main', fontSize: { xs: 64, sm: 96 } }}>
        {t(prefix)}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t(`${prefix}Text`)}</Typography>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
        <Button variant="outlined" onClick={() => navigate(-1)}>
          {t('console.page.back')}
        </Button>
        <Button variant="contained" onClick={() => navigate('/')}>
          {t('console.page.home')}
        </Button>
      </Stack>
    </Box>
  );
}

export const NotFoundPage = () => <ErrorPage code={404} />;
export const UnauthorizedPage = () => <ErrorPage code={401} />;

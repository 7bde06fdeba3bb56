import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { ErrorCode } from '../../domain/errorCodes';

/** Whether a vessel call failed because the vessel is not the user's to see (or does not exist): code 2. */
export const isNoVesselAccess = (error: unknown): boolean => (error as { code?: number } | null)?.code === ErrorCode.NotFound;

/**
 * A vessel page opened on a vessel the user may not see (a sub-user's ungranted vessel, another
 * enterprise's, a deleted one): one message, no retry (asking again changes nothing), and two ways
 * back: choose another vessel, or the status monitor. The calls behind it are quiet about code 2.
 */
export function NoVesselAccess({ onChoose }: { onChoose: () => void }) {
  const t = useTranslate();
  return (
    <Alert severity="warning" data-testid="no-vessel-access">
      <AlertTitle>{t('vessel.noAccess.title')}</AlertTitle>
      {t('vessel.noAccess.text')}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 1.5 }}>
        <Button size="small" variant="contained" onClick={onChoose} data-testid="no-access-choose">
          {t('vessel.noAccess.choose')}
        </Button>
        <Button size="small" component={Link} to="/device/deviceManageData" data-testid="no-access-fleet">
          {t('vessel.noAccess.fleet')}
        </Button>
      </Stack>
    </Alert>
  );
}

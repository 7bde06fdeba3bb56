import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';

/** Under a monitor tab's filters: a thin bar while the list refreshes, and a load error with a retry button. */
export function FetchStatus({ isFetching, error, onRetry }: { isFetching: boolean; error: Error | null; onRetry: () => void }) {
  const translate = useTranslate();
  return (
    <>
      <Box sx={{ height: 4 }}>{isFetching && <LinearProgress aria-label={translate('ra.page.loading')} sx={{ height: 2 }} />}</Box>
      {error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={onRetry}>
              {translate('monitor.retry')}
            </Button>
          }
          sx={{ mb: 1 }}
        >
          {translate('monitor.loadError', { message: error.message })}
        </Alert>
      )}
    </>
  );
}

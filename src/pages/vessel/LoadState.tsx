import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslate } from 'ra-core';

/** A query's state as react-query (useCallQuery, useGetList, useGetManyReference...) gives it. */
interface QueryState {
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** The loading bar and the error notice (with a retry) of a loaded block. */
export function LoadState({ state }: { state: QueryState }) {
  const t = useTranslate();
  if (state.isFetching) return <LinearProgress aria-label={t('ra.page.loading')} sx={{ my: 1 }} />;
  if (state.error) {
    const message = state.error instanceof Error ? state.error.message : '';
    return (
      <Alert
        severity="error"
        sx={{ my: 1 }}
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              void state.refetch();
            }}
          >
            {t('vessel.form.retry')}
          </Button>
        }
      >
        {t('vessel.form.loadError')}
        {message ? `: ${message}` : ''}
      </Alert>
    );
  }
  return null;
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslate } from 'ra-core';

/** A query's state as react-query (useCallQuery, useGetList...) gives it. */
interface QueryState { isFetching: boolean; error: unknown; refetch: () => unknown }
/** The older loader's state ({ loading, error, reload }); kept while some blocks still use it. */
interface LoaderState { loading: boolean; error: unknown; reload: () => void }

/** The loading bar and the error notice (with a retry) of a loaded block. */
export function LoadState({ state }: { state: QueryState | LoaderState }) {
  const t = useTranslate();
  const loading = 'refetch' in state ? state.isFetching : state.loading;
  const retry = () => { if ('refetch' in state) void state.refetch(); else state.reload(); };
  if (loading) return <LinearProgress sx={{ my: 1 }} />;
  if (state.error) {
    const message = state.error instanceof Error ? state.error.message : '';
    return (
      <Alert severity="error" sx={{ my: 1 }} action={<Button color="inherit" size="small" onClick={retry}>{t('vessel.form.retry')}</Button>}>
        {t('vessel.form.loadError')}{message ? `: ${message}` : ''}
      </Alert>
    );
  }
  return null;
}

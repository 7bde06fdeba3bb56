import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import UploadIcon from '@mui/icons-material/Upload';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { Title, useCreatePath, useNotify, useTranslate } from 'react-admin';
import { Link, useNavigate } from 'react-router-dom';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { errorCode, errorData } from '../../data/dataProvider';
import { FIRMWARE_VERSION_TYPES, firmwareSchema } from '../../domain/firmware';
import { formatBytes } from '../../format/bytes';

const TEXT_FIELDS = ['deviceType', 'customer', 'model', 'version'] as const;
interface UploadForm {
  deviceType: string;
  customer: string;
  model: string;
  version: string;
  versionType: string;
  enabled: boolean;
  updateInfo: string;
}

/** The size limit the server enforces (firmware/getConfig), stated in the form. */
function useFirmwareConfig() {
  return useCallQuery('firmware', 'config', [], { staleTime: 5 * 60_000 }).data ?? null;
}

/**
 * Upload a firmware package: the fields validated as you type by the server's yup schema, the
 * file checked against the server's size limit, then sent with a real progress bar (XMLHttpRequest
 * upload progress). Done, it opens the package's page to roll it out.
 */
export function FirmwareUpload() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  const config = useFirmwareConfig();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  // Multipart with upload progress (src/api/transfer.ts), reached through the dataProvider's call; the list is read again after it.
  const upload = useCallMutation('firmware', 'upload', { resources: ['system/firmware'] });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UploadForm>({
    mode: 'onChange',
    resolver: yupResolver(firmwareSchema) as never,
    defaultValues: { deviceType: '', customer: '', model: '', version: '', versionType: 'release', enabled: true, updateInfo: '' },
  });

  const checkFile = (candidate: File | null): string | null => {
    if (!candidate) return translate('firmware.fileRequired');
    if (config && candidate.size > config.maxBytes)
      return translate('firmware.fileTooLarge', { size: formatBytes(candidate.size), mb: config.maxMb });
    return null;
  };
  const chooseFile = (candidate: File | null) => {
    setFile(candidate);
    setFileError(candidate ? checkFile(candidate) : null);
  };

  const submit = handleSubmit(async (values) => {
    const problem = checkFile(file);
    setFileError(problem);
    if (problem || !file) return;
    setFailure(null);
    setProgress(0);
    abort.current = new AbortController();
    try {
      const fields = { ...values, enabled: String(values.enabled), updateInfo: values.updateInfo ?? '' };
      const created = await upload.mutateAsync([fields, file, setProgress, abort.current.signal]);
      notify('firmware.uploaded', { type: 'success' });
      navigate(createPath({ resource: 'system/firmware', type: 'edit', id: created.id }));
    } catch (error) {
      setProgress(null);
      if (abort.current?.signal.aborted) {
        setFailure(translate('firmware.uploadCancelled'));
        return;
      }
      if (errorCode(error) !== undefined) {
        setFailure((error as Error).message);
        const data = errorData(error);
        if (Array.isArray(data)) {
          for (const e of data as { field?: string; message?: string }[]) {
            if (e?.field && e.message && e.field in values) setError(e.field as keyof UploadForm, { type: 'server', message: e.message });
          }
        }
      } else setFailure((error as Error).message);
    } finally {
      abort.current = null;
    }
  });

  const busy = progress !== null;
  const sent = file && progress !== null ? Math.round(file.size * progress) : 0;
  const message = (key: keyof UploadForm) => {
    const m = errors[key]?.message;
    return m ? translate(String(m), { _: String(m) }) : undefined;
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 720 }}>
      <Title title={translate('firmware.uploadTitle')} />
      <Card>
        <CardContent>
          <form
            noValidate
            onSubmit={(e) => {
              void submit(e);
            }}
            data-testid="fw-upload-form"
          >
            <Stack spacing={2}>
              <Typography variant="h6" component="h1">
                {translate('firmware.uploadTitle')}
              </Typography>
              {TEXT_FIELDS.map((f) => (
                <TextField
                  key={f}
                  {...register(f)}
                  label={translate(`firmware.fields.${f}`)}
                  required
                  size="small"
                  disabled={busy}
                  error={!!errors[f]}
                  helperText={message(f) ?? (f === 'version' ? translate('firmware.versionHint') : undefined)}
                  slotProps={{ htmlInput: { 'data-testid': `fw-${f}` } }}
                />
              ))}
              <Controller
                name="versionType"
                control={control}
                render={({ field }) => (
                  <TextField
                    select
                    {...field}
                    label={translate('firmware.fields.versionType')}
                    size="small"
                    disabled={busy}
                    error={!!errors.versionType}
                    helperText={message('versionType')}
                  >
                    {FIRMWARE_VERSION_TYPES.map((id) => (
                      <MenuItem key={id} value={id}>
                        {translate(`firmware.versionType.${id}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Controller
                name="enabled"
                control={control}
                render={({ field }) => (
                  <FormControlLabel
                    control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} disabled={busy} />}
                    label={translate('firmware.fields.enabled')}
                  />
                )}
              />
              <TextField
                {...register('updateInfo')}
                label={translate('firmware.fields.updateInfo')}
                multiline
                minRows={3}
                size="small"
                disabled={busy}
                error={!!errors.updateInfo}
                helperText={message('updateInfo')}
                slotProps={{ htmlInput: { 'data-testid': 'fw-updateInfo' } }}
              />
              <Box>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
                  <Button component="label" variant="outlined" startIcon={<AttachFileIcon />} disabled={busy}>
                    {translate('firmware.chooseFile')}
                    <input type="file" hidden data-testid="fw-file" onChange={(e) => chooseFile(e.target.files?.[0] ?? null)} />
                  </Button>
                  <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="fw-file-name">
                    {file ? `${file.name} (${formatBytes(file.size)})` : translate('firmware.noFile')}
                  </Typography>
                </Stack>
                <Typography
                  variant="caption"
                  color={fileError ? 'error' : 'text.secondary'}
                  sx={{ display: 'block', mt: 0.5 }}
                  data-testid="fw-size-limit"
                >
                  {fileError ?? (config ? translate('firmware.sizeLimit', { mb: config.maxMb }) : '\u00a0')}
                </Typography>
              </Box>
              {busy && (
                <Box data-testid="fw-progress">
                  <LinearProgress
                    aria-label={translate('firmware.uploadTitle')}
                    variant={progress! < 1 ? 'determinate' : 'indeterminate'}
                    value={Math.round(progress! * 100)}
                    sx={{ height: 8, borderRadius: 4 }}
                  />
                  <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="fw-progress-text">
                    {progress! < 1
                      ? translate('firmware.uploading', {
                          percent: Math.round(progress! * 100),
                          sent: formatBytes(sent),
                          total: formatBytes(file?.size ?? 0),
                        })
                      : translate('firmware.processing')}
                  </Typography>
                </Box>
              )}
              {failure && (
                <Alert severity="error" data-testid="fw-upload-error">
                  {failure}
                </Alert>
              )}
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                <Button type="submit" variant="contained" startIcon={<UploadIcon />} disabled={busy} data-testid="fw-submit">
                  {translate('firmware.submit')}
                </Button>
                {busy ? (
                  <Button onClick={() => abort.current?.abort()} data-testid="fw-cancel">
                    {translate('firmware.cancelUpload')}
                  </Button>
                ) : (
                  <Button component={Link} to={createPath({ resource: 'system/firmware', type: 'list' })}>
                    {translate('firmware.back')}
                  </Button>
                )}
              </Stack>
            </Stack>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}

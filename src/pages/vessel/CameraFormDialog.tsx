import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useForm } from 'react-hook-form';
import { useCreate, useNotify, useUpdate } from 'react-admin';
import type { Camera } from '../../api/vesselApi';
import { errorData } from '../../data/dataProvider';
import { cameraSchema } from '../../domain/vesselSchemas';
import { useTranslate } from 'ra-core';
import { domainResolver, serverFieldErrors } from './domainResolver';

/** The camera resource (src/resources/cameras/definition.ts). */
const CAMERAS = 'device/cameraInfo';
const FIELDS = ['name', 'link', 'description'] as const;
type CameraForm = Record<(typeof FIELDS)[number], string>;

/** Add or edit a camera; the link must be http(s) (the domain's rule, as on the server). */
export function CameraFormDialog(props: {
  deviceId: number;
  camera: Camera | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      {props.open && <CameraForm {...props} />}
    </Dialog>
  );
}

/** Mounted at each opening, so the inputs start from the camera's values; saved with useCreate / useUpdate. */
function CameraForm({
  deviceId,
  camera,
  onClose,
  onSaved,
}: {
  deviceId: number;
  camera: Camera | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const [create] = useCreate();
  const [update] = useUpdate();
  const toBody = (v: CameraForm) => ({ ...(camera ? { id: camera.id } : {}), deviceId, ...v });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CameraForm>({
    mode: 'onChange',
    resolver: domainResolver<CameraForm>(cameraSchema, toBody),
    defaultValues: { name: camera?.name ?? '', link: camera?.link ?? '', description: camera?.description ?? '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const data = toBody(values);
      if (camera)
        await update(CAMERAS, { id: camera.id, data, previousData: camera }, { mutationMode: 'pessimistic', returnPromise: true });
      else await create(CAMERAS, { data }, { returnPromise: true });
      notify('vessel.voyage.saved', { type: 'success' });
      onSaved();
    } catch (error) {
      for (const e of serverFieldErrors(errorData(error))) setError(e.field as keyof CameraForm, { type: 'server', message: e.message });
    }
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        void submit(e);
      }}
      data-testid="camera-form"
    >
      <DialogTitle>{t(camera ? 'vessel.camera.edit' : 'vessel.camera.add')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {FIELDS.map((f) => {
            const message = errors[f]?.message;
            const { ref, ...field } = register(f);
            return (
              <TextField
                key={f}
                {...field}
                inputRef={ref}
                label={t(`vessel.camera.fields.${f}`)}
                required={f !== 'description'}
                size="small"
                multiline={f === 'description'}
                minRows={f === 'description' ? 2 : undefined}
                error={!!message}
                helperText={message ? t(String(message)) : f === 'link' ? t('vessel.camera.linkHint') : undefined}
                slotProps={{ htmlInput: { 'data-testid': `camera-${f}` } }}
              />
            );
          })}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('vessel.form.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="camera-save">
          {t('vessel.form.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

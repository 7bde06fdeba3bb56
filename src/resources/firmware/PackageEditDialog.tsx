import { useEffect } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Controller, useForm } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import { useNotify, useTranslate, useUpdate } from 'react-admin';
import { errorData } from '../../data/dataProvider';
import { FIRMWARE_VERSION_TYPES, updateFirmwareSchema, type FirmwarePackage } from '../../domain/firmware';

interface EditForm {
  id: number;
  customer: string;
  versionType: string;
  enabled: boolean;
  updateInfo: string;
}

/** What may change after the upload: customer, version type, enabled, update info (same schema as the server). */
export function PackageEditDialog({
  firmware,
  open,
  onClose,
  onSaved,
}: {
  firmware: FirmwarePackage;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  // The resource's update (definition endpoints.update): the package's record and lists take the server's answer.
  const [update] = useUpdate<FirmwarePackage>();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EditForm>({
    mode: 'onChange',
    resolver: yupResolver(updateFirmwareSchema) as never,
  });
  useEffect(() => {
    if (open)
      reset({
        id: firmware.id,
        customer: firmware.customer,
        versionType: firmware.versionType,
        enabled: firmware.enabled,
        updateInfo: firmware.updateInfo ?? '',
      });
  }, [open, firmware, reset]);
  const message = (key: keyof EditForm) => {
    const m = errors[key]?.message;
    return m ? translate(String(m), { _: String(m) }) : undefined;
  };
  const submit = handleSubmit(async (values) => {
    try {
      await update(
        'system/firmware',
        { id: firmware.id, data: { ...values, updateInfo: values.updateInfo || null }, previousData: firmware },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      notify('ra.notification.updated', { type: 'success', messageArgs: { smart_count: 1 } });
      onSaved();
    } catch (error) {
      const data = errorData(error);
      if (Array.isArray(data)) {
        for (const e of data as { field?: string; message?: string }[])
          if (e?.field && e.message) setError(e.field as keyof EditForm, { type: 'server', message: e.message });
      }
    }
  });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      <form
        noValidate
        onSubmit={(e) => {
          void submit(e);
        }}
        data-testid="fw-edit-form"
      >
        <DialogTitle>{`${firmware.model} ${firmware.version}`}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              {...register('customer')}
              label={translate('firmware.fields.customer')}
              required
              size="small"
              error={!!errors.customer}
              helperText={message('customer')}
            />
            <Controller
              name="versionType"
              control={control}
              render={({ field }) => (
                <TextField select {...field} value={field.value ?? 'release'} label={translate('firmware.fields.versionType')} size="small">
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
                  control={<Switch checked={!!field.value} onChange={(e) => field.onChange(e.target.checked)} />}
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
              error={!!errors.updateInfo}
              helperText={message('updateInfo')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

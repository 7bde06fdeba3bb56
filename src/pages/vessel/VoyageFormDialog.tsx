import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useForm } from 'react-hook-form';
import { useCreate, useGetList, useLocaleState, useNotify, useUpdate } from 'react-admin';
import type { Voyage } from '../../api/vesselApi';
import { errorData } from '../../data/dataProvider';
import { voyageSchema } from '../../domain/vesselSchemas';
import { timeZoneLabel } from '../../format/date';
import { useTranslate } from 'ra-core';
import { useClientState } from '../../state/useClientState';
import { domainResolver, serverFieldErrors } from './domainResolver';
import { isoToLocalInput, localInputToIso } from '../../format/zonedInput';
import { PORTS } from '../../domain/ports';
import { GEOFENCES_NAME } from '../../domain/geofences';

/** The voyage resource (src/resources/voyages/definition.ts). */
export const VOYAGES = 'device/voyage';
const FIELDS = ['voyageNo', 'destination', 'etd', 'eta', 'agent', 'email', 'phone', 'remark'] as const;
type VoyageForm = Record<(typeof FIELDS)[number], string>;
const REQUIRED = new Set(['voyageNo', 'destination', 'etd', 'eta', 'agent']);

/** Add or edit a voyage; validated as you type with the domain's voyage schema (the server's). */
export function VoyageFormDialog(props: {
  deviceId: number;
  /** The vessel's enterprise, whose port geofences the destination suggests. */
  ownerId: number;
  voyage: Voyage | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const fullScreen = useMediaQuery('(max-width:600px)');
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" fullScreen={fullScreen}>
      {props.open && <VoyageForm {...props} />}
    </Dialog>
  );
}

/** Mounted at each opening, so the inputs start from the voyage's values; saved with useCreate / useUpdate. */
function VoyageForm({
  deviceId,
  ownerId,
  voyage,
  onClose,
  onSaved,
}: {
  deviceId: number;
  ownerId: number;
  voyage: Voyage | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const t = useTranslate();
  const notify = useNotify();
  const [create] = useCreate();
  const [update] = useUpdate();
  const timeZone = useClientState((s) => s.timeZone);
  const toBody = (v: VoyageForm) => ({
    ...(voyage ? { id: voyage.id } : {}),
    deviceId,
    ...v,
    etd: localInputToIso(v.etd, timeZone),
    eta: localInputToIso(v.eta, timeZone),
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<VoyageForm>({
    mode: 'onChange',
    resolver: domainResolver<VoyageForm>(voyageSchema, toBody),
    defaultValues: Object.fromEntries(
      FIELDS.map((f) => [f, f === 'etd' || f === 'eta' ? isoToLocalInput(voyage?.[f], timeZone) : (voyage?.[f] ?? '')]),
    ) as VoyageForm,
  });

  const submit = handleSubmit(async (values) => {
    try {
      const data = toBody(values);
      if (voyage)
        await update(VOYAGES, { id: voyage.id, data, previousData: voyage }, { mutationMode: 'pessimistic', returnPromise: true });
      else await create(VOYAGES, { data }, { returnPromise: true });
      notify('vessel.voyage.saved', { type: 'success' });
      onSaved();
    } catch (error) {
      for (const e of serverFieldErrors(errorData(error))) setError(e.field as keyof VoyageForm, { type: 'server', message: e.message });
    }
  });

  return (
    <form
      noValidate
      onSubmit={(e) => {
        void submit(e);
      }}
      data-testid="voyage-form"
    >
      <DialogTitle>{t(voyage ? 'vessel.voyage.edit' : 'vessel.voyage.add')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {FIELDS.map((f) => {
            const time = f === 'etd' || f === 'eta';
            const message = errors[f]?.message;
            const { ref, ...field } = register(f, f === 'etd' ? { deps: ['eta'] } : {});
            return (
              <TextField
                key={f}
                {...field}
                inputRef={ref}
                id={`voyage-${f}`}
                label={t(`vessel.voyage.fields.${f}`)}
                required={REQUIRED.has(f)}
                type={time ? 'datetime-local' : f === 'email' ? 'email' : 'text'}
                multiline={f === 'remark'}
                minRows={f === 'remark' ? 2 : undefined}
                size="small"
                error={!!message}
                helperText={message ? t(String(message)) : f === 'destination' ? t('vessel.voyage.destinationHint') : undefined}
                slotProps={{
                  inputLabel: time ? { shrink: true } : undefined,
                  htmlInput: { 'data-testid': `voyage-${f}`, ...(f === 'destination' ? { list: PORT_LIST } : {}) },
                }}
              />
            );
          })}
          <PortSuggestions ownerId={ownerId} />
          <Typography variant="caption" color="text.secondary">
            {t('vessel.voyage.zoneHint', { zone: timeZoneLabel(timeZone) })}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('vessel.form.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={isSubmitting} data-testid="voyage-save">
          {t('vessel.form.save')}
        </Button>
      </DialogActions>
    </form>
  );
}

const PORT_LIST = 'voyage-destination-ports';

/**
 * The ports a destination may name, offered as the user types (the browser's own list, keyboard
 * included): the enterprise's port geofences first, then the product's ports in the user's
 * language with their UN/LOCODE (docs/architecture.md, "Degradation ahead").
 */
function PortSuggestions({ ownerId }: { ownerId: number }) {
  const t = useTranslate();
  const [locale] = useLocaleState();
  const zh = locale === 'zh';
  const { data: own = [] } = useGetList<{ id: number; name: string }>(GEOFENCES_NAME, {
    filter: { kind: 'port', ownerId },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'name', order: 'ASC' },
  });
  return (
    <datalist id={PORT_LIST} data-testid="voyage-port-list">
      {own.map((g) => (
        <option key={`own-${g.id}`} value={g.name} label={t('vessel.voyage.ownPort')} />
      ))}
      {PORTS.map((p) => (
        <option key={p.locode} value={zh ? p.zh : p.name} label={p.locode} />
      ))}
    </datalist>
  );
}

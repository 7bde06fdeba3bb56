import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { positionSchema, toSigned, type PositionInput } from '../../domain/position';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';

const EMPTY: PositionInput = { longitude: '', lonHemisphere: 'E', latitude: '', latHemisphere: 'N' };

/**
 * A position typed by hand (docs/requirements.md §5: longitude 0-180 E/W, latitude 0-90 N/S, two decimals),
 * checked as it is typed with the server's own rule. It centres the map; an admin or enterprise
 * may also store it as the position of a vessel with no GPS fix.
 */
export function PositionForm({
  canSetVessel,
  hasManual,
  onCentre,
  onSetVessel,
  onClearVessel,
}: {
  canSetVessel: boolean;
  hasManual: boolean;
  onCentre: (p: { lat: number; lon: number }) => void;
  onSetVessel: (p: PositionInput) => Promise<void>;
  onClearVessel: () => Promise<void>;
}) {
  const t = useTranslate();
  const [values, setValues] = useState<PositionInput>(EMPTY);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const checked = useMemo(() => validate(positionSchema, values), [values]);
  const errors = checked.ok ? {} : Object.fromEntries(checked.errors.map((e) => [e.field, e.message]));
  const shown = (field: string) => (touched[field] ? errors[field] : undefined);
  const set = (field: keyof PositionInput) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setTouched((v) => ({ ...v, [field]: true }));
  };
  const submit = (action: (p: PositionInput) => void | Promise<void>) => {
    setTouched({ longitude: true, latitude: true, lonHemisphere: true, latHemisphere: true });
    if (checked.ok) void action(checked.value);
  };
  const field = (name: 'longitude' | 'latitude', hemisphere: 'lonHemisphere' | 'latHemisphere', options: [string, string][]) => (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextField
        size="small"
        label={t(`track.position.${name}`)}
        value={values[name]}
        onChange={set(name)}
        sx={{ flex: 1, minWidth: 110 }}
        error={Boolean(shown(name))}
        helperText={shown(name) ? t(shown(name)!) : ' '}
        slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': `position-${name}` } }}
      />
      <TextField
        select
        size="small"
        label={t(`track.position.${hemisphere}`)}
        value={values[hemisphere]}
        onChange={set(hemisphere)}
        sx={{ width: 110 }}
        error={Boolean(shown(hemisphere))}
        helperText={shown(hemisphere) ? t(shown(hemisphere)!) : ' '}
        slotProps={{ htmlInput: { 'data-testid': `position-${hemisphere}` } }}
      >
        {options.map(([value, key]) => (
          <MenuItem key={value} value={value}>
            {t(key)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
  return (
    <Paper
      variant="outlined"
      sx={{ p: 1.5 }}
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit((p) => onCentre(toSigned(p)));
      }}
    >
      <Typography variant="subtitle2" component="h2">
        {t('track.position.title')}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {t('track.position.hint')}
      </Typography>
      {field('longitude', 'lonHemisphere', [
        ['E', 'track.position.east'],
        ['W', 'track.position.west'],
      ])}
      {field('latitude', 'latHemisphere', [
        ['N', 'track.position.north'],
        ['S', 'track.position.south'],
      ])}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" size="small" data-testid="position-centre">
          {t('track.position.centre')}
        </Button>
        {canSetVessel && (
          <Button variant="outlined" size="small" onClick={() => submit(onSetVessel)} data-testid="position-set">
            {t('track.position.setVessel')}
          </Button>
        )}
        {canSetVessel && hasManual && (
          <Button color="warning" size="small" onClick={() => void onClearVessel()} data-testid="position-clear">
            {t('track.position.clearVessel')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

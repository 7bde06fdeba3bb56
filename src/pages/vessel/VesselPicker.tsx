import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { devicesApi } from '../../api/devicesApi';
import type { Device } from '../../domain/device';
import { useTranslate } from 'ra-core';

type VesselOption = Pick<Device, 'id' | 'name' | 'deviceNum' | 'mmsi'>;

const label = (d: VesselOption) => [d.name, d.deviceNum, d.mmsi ? `MMSI ${d.mmsi}` : ''].filter(Boolean).join(' · ');

/**
 * Chooses one visible vessel, searching by name, device number or MMSI (device/getAll?search=);
 * `value` may come from the URL, then the vessel is loaded by id. Used by the vessel pages and by
 * the track and location pages.
 */
export function VesselPicker({ value, onChange, sx = { width: { xs: '100%', sm: 340 } } }: {
  value: number | null; onChange: (id: number | null) => void; sx?: SxProps<Theme>;
}) {
  const t = useTranslate();
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<VesselOption[]>([]);
  const [selected, setSelected] = useState<VesselOption | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!value) return setSelected(null);
    if (selected?.id === value) return undefined;
    let live = true;
    devicesApi.getDevice(value).then((d) => { if (live) setSelected(d); }, () => undefined);
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      devicesApi.devicePage({ search: input.trim() || undefined, pageIndex: 1, pageSize: 20, sort: 'name', order: 'asc' }, controller.signal)
        .then((page) => setOptions(page.list), () => undefined)
        .finally(() => setLoading(false));
    }, 250);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [input]);

  return (
    <Autocomplete
      size="small"
      sx={sx}
      options={options}
      value={selected}
      loading={loading}
      filterOptions={(x) => x}
      getOptionLabel={label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('vessel.picker.none')}
      onInputChange={(_, text, reason) => setInput(reason === 'input' ? text : '')}
      onChange={(_, option) => { setSelected(option); onChange(option?.id ?? null); }}
      renderInput={(params) => <TextField {...params} label={t('vessel.picker.label')} placeholder={t('vessel.picker.placeholder')} inputProps={{ ...params.inputProps, 'data-testid': 'vessel-picker' }} />}
      renderOption={(props, option) => <li {...props} key={option.id} data-testid={`vessel-option-${option.id}`}>{label(option)}</li>}
    />
  );
}

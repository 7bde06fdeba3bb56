import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { devicesApi } from '../../api/devicesApi';
import type { Device } from '../../domain/device';
import { useT } from '../../i18n/I18nContext';

type VesselOption = Pick<Device, 'id' | 'name' | 'deviceNum' | 'mmsi'>;

const label = (d: VesselOption) => [d.name, d.deviceNum, d.mmsi ? `MMSI ${d.mmsi}` : ''].filter(Boolean).join(' · ');

/**
 * Chooses one visible vessel, searching by name, MMSI or device number (the device list's search);
 * `deviceId` may come from the URL, then the vessel is loaded by id.
 */
export function VesselPicker({ deviceId, onChange }: { deviceId: number | null; onChange: (id: number | null) => void }) {
  const { t } = useT();
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<VesselOption[]>([]);
  const [value, setValue] = useState<VesselOption | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!deviceId) { setValue(null); return; }
    if (value?.id === deviceId) return;
    devicesApi.getDevice(deviceId).then(setValue).catch(() => onChange(null));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deviceId]);

  useEffect(() => {
    const timer = setTimeout(() => {
      setLoading(true);
      devicesApi.devicePage({ search: input && input !== (value ? label(value) : '') ? input : undefined, pageIndex: 1, pageSize: 20 })
        .then((page) => setOptions(page.list))
        .catch(() => setOptions([]))
        .finally(() => setLoading(false));
    }, 250);
    return () => clearTimeout(timer);
  }, [input, value]);

  return (
    <Autocomplete
      size="small"
      sx={{ width: { xs: '100%', sm: 340 } }}
      options={options}
      value={value}
      loading={loading}
      filterOptions={(x) => x}
      getOptionLabel={label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('track.noVessel')}
      onInputChange={(_, text) => setInput(text)}
      onChange={(_, next) => { setValue(next); onChange(next?.id ?? null); }}
      renderInput={(params) => <TextField {...params} label={t('track.vessel')} placeholder={t('track.vesselSearch')} inputProps={{ ...params.inputProps, 'data-testid': 'vessel-picker' }} />}
      renderOption={(props, option) => <li {...props} key={option.id} data-testid={`vessel-option-${option.id}`}>{label(option)}</li>}
    />
  );
}

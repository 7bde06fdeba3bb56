import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { vesselApi } from '../../api/vesselApi';
import type { Device } from '../../domain/device';
import { useT } from '../../i18n/I18nContext';

type Option = Pick<Device, 'id' | 'name' | 'deviceNum' | 'mmsi'>;
const describe = (d: Option) => [d.name, d.deviceNum, d.mmsi].filter(Boolean).join(' · ');

/** Picks one visible vessel, searching by name, device number or MMSI (device/getAll?search=). */
export function VesselPicker({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useT();
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [selected, setSelected] = useState<Option | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!value) return setSelected(null);
    if (selected?.id === value) return undefined;
    let live = true;
    vesselApi.getDevice(value).then((d) => { if (live) setSelected(d); }, () => undefined);
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      vesselApi.searchVessels(input.trim(), controller.signal)
        .then((page) => setOptions(page.list), () => undefined)
        .finally(() => setLoading(false));
    }, 250);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [input]);

  return (
    <Autocomplete
      data-testid="vessel-picker"
      size="small"
      sx={{ minWidth: 240, flex: { md: '1 1 280px' }, maxWidth: { md: 420 } }}
      options={options}
      value={selected}
      loading={loading}
      filterOptions={(x) => x}
      getOptionLabel={describe}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('vessel.picker.none')}
      onInputChange={(_, text, reason) => { if (reason === 'input') setInput(text); }}
      onChange={(_, option) => { setSelected(option); onChange(option?.id ?? null); }}
      renderInput={(params) => <TextField {...params} label={t('vessel.picker.label')} placeholder={t('vessel.picker.placeholder')} />}
    />
  );
}

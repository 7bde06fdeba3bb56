import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useGetList } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { VesselItem } from '../../api/supportApi';
import { useSettled } from '../../hooks/useSettled';

/** The devices resource, whose list search finds the vessels. */
export const DEVICES = 'system/deviceManagement';

/** The vessels matching what is typed (the device list's search), online ones first. */
export function FaultVesselPicker({ value, onChange }: { value: VesselItem | null; onChange: (v: VesselItem | null) => void }) {
  const t = useTranslate();
  const [text, setText] = useState('');
  const search = useSettled(text, 250);
  const { data, isFetching } = useGetList<VesselItem>(
    DEVICES,
    { filter: { search }, pagination: { page: 1, perPage: 50 }, sort: { field: 'status', order: 'DESC' } },
    { placeholderData: keepPreviousData },
  );
  const options = data ?? [];
  const loading = isFetching || search !== text;
  return (
    <Autocomplete
      value={value}
      options={value && !options.some((o) => o.id === value.id) ? [value, ...options] : options}
      loading={loading}
      getOptionLabel={(o) => `${o.name}${o.deviceNum ? ` (${o.deviceNum})` : ''}`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(x) => x}
      onChange={(_, v) => onChange(v)}
      onInputChange={(_, typed, reason) => reason === 'input' && setText(typed)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('support.fault.pickVessel')}
          placeholder={t('support.fault.pickVesselHint')}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'fc-vessel' } }}
        />
      )}
      sx={{ minWidth: 260, flex: 1 }}
    />
  );
}

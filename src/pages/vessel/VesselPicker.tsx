import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import { keepPreviousData } from '@tanstack/react-query';
import { useGetList, useGetOne } from 'react-admin';
import type { Device } from '../../domain/device';
import { ErrorCode } from '../../domain/errorCodes';
import { useTranslate } from 'ra-core';

/** The device resource (System > Device): its list and getById are the vessels this user sees. */
const DEVICES = 'system/deviceManagement';

type VesselOption = Pick<Device, 'id' | 'name' | 'deviceNum' | 'mmsi'>;

const label = (d: VesselOption) => [d.name, d.deviceNum, d.mmsi ? `MMSI ${d.mmsi}` : ''].filter(Boolean).join(' · ');

/**
 * Chooses one visible vessel, searching by name, device number or MMSI (the device resource's list,
 * filter search); `value` may come from the URL, then the vessel is read by id (getOne). Used by the
 * vessel pages and by the track and location pages.
 */
export function VesselPicker({
  value,
  onChange,
  sx = { width: { xs: '100%', sm: 340 } },
}: {
  value: number | null;
  onChange: (id: number | null) => void;
  sx?: SxProps<Theme>;
}) {
  const t = useTranslate();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  // The option picked here; a value from elsewhere (the URL) is read by id.
  const [picked, setPicked] = useState<VesselOption | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), 250);
    return () => clearTimeout(timer);
  }, [input]);
  const { data: options = [], isFetching } = useGetList<Device>(
    DEVICES,
    {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'name', order: 'ASC' },
      filter: { search: search || undefined },
    },
    { placeholderData: keepPreviousData },
  );
  // Quiet about code 2: the page says in place that the vessel is not the user's to see (NoVesselAccess).
  const { data: fetched } = useGetOne<Device>(
    DEVICES,
    { id: value ?? 0, meta: { quiet: [ErrorCode.NotFound] } },
    { enabled: !!value && picked?.id !== value },
  );
  const selected = !value ? null : picked?.id === value ? picked : fetched?.id === value ? fetched : null;

  return (
    <Autocomplete
      size="small"
      sx={sx}
      options={options}
      value={selected}
      loading={isFetching}
      filterOptions={(x) => x}
      getOptionLabel={label}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={t('vessel.picker.none')}
      onInputChange={(_, text, reason) => setInput(reason === 'input' ? text : '')}
      onChange={(_, option) => {
        setPicked(option);
        onChange(option?.id ?? null);
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('vessel.picker.label')}
          placeholder={t('vessel.picker.placeholder')}
          inputProps={{ ...params.inputProps, 'data-testid': 'vessel-picker' }}
        />
      )}
      renderOption={(props, option) => (
        <li {...props} key={option.id} data-testid={`vessel-option-${option.id}`}>
          {label(option)}
        </li>
      )}
    />
  );
}

import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { keepPreviousData } from '@tanstack/react-query';
import { useGetList } from 'react-admin';
import { useTranslate } from 'ra-core';
import type { Device } from '../../domain/device';
import { pageTitle } from '../../i18n/pageTitle';
import { CommandSender, type CommandTarget } from './CommandSender';

/** The device resource: its list is the vessels this user sees. */
const DEVICES = 'system/deviceManagement';
type Option = CommandTarget & { deviceNum: string | null };
const label = (d: Option) => [d.name, d.deviceNum].filter(Boolean).join(' · ');

/**
 * Above the fleet's command list: the page's title as the reader sees it (the h1 is the generic
 * list's hidden one) and "send a command": pick one or many visible vessels, then a kind, with the
 * vessel page's buttons, dialog and confirmation (CommandSender).
 */
export function CommandListPanel() {
  const t = useTranslate();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), 250);
    return () => clearTimeout(timer);
  }, [input]);
  const { data: options = [], isFetching } = useGetList<Device>(
    DEVICES,
    { pagination: { page: 1, perPage: 20 }, sort: { field: 'name', order: 'ASC' }, filter: { search: search || undefined } },
    { placeholderData: keepPreviousData },
  );

  return (
    <Paper sx={{ p: 2, mb: 2 }} data-testid="command-send-panel">
      {/* The page's name, drawn: the h1 (PageHeading) is hidden, and this repeats it for the eye only. */}
      <Typography variant="h6" component="p" aria-hidden sx={{ fontWeight: 600, mb: 1 }} data-testid="commands-title">
        {pageTitle(t, 'commands.menu')}
      </Typography>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t('commands.many.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('commands.many.intro')}
      </Typography>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={1.5} sx={{ alignItems: { lg: 'center' } }}>
        <Autocomplete
          multiple
          size="small"
          sx={{ flex: { lg: '1 1 420px' }, maxWidth: { lg: 640 } }}
          options={options.map((d): Option => ({ id: Number(d.id), name: d.name, deviceNum: d.deviceNum ?? null }))}
          value={picked}
          loading={isFetching}
          filterOptions={(x) => x}
          filterSelectedOptions
          getOptionLabel={label}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          noOptionsText={t('vessel.picker.none')}
          onInputChange={(_, text, reason) => setInput(reason === 'input' ? text : '')}
          onChange={(_, value) => setPicked(value)}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('commands.many.vessels')}
              placeholder={picked.length ? undefined : t('commands.many.vesselsHint')}
              inputProps={{ ...params.inputProps, 'data-testid': 'command-vessels' }}
            />
          )}
          renderOption={(props, option) => (
            <li {...props} key={option.id} data-testid={`command-vessel-${option.id}`}>
              {label(option)}
            </li>
          )}
        />
        <CommandSender vessels={picked} onSent={() => setPicked([])} />
      </Stack>
      {picked.length === 0 && (
        <Typography variant="caption" color="text.secondary" data-testid="command-pick-first">
          {t('commands.many.pick')}
        </Typography>
      )}
    </Paper>
  );
}

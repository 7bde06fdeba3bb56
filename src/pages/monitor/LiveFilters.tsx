import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { useOwnerTree } from '../../resources/devices/useOwnerTree';
import { DEVICE_KINDS, DEVICE_KIND_KEYS } from '../../domain/deviceKinds';
import { Level } from '../../domain/levels';
import type { MonitorFilters } from './monitorFilters';

/**
 * The status monitor's filters: search (sent 350 ms after the last key), kind, owner (admins) and
 * sub-user (admins, enterprises), the link carrying the traffic (a backup link now), and a button clearing them all (docs/console.md, "Live monitoring").
 */
export function LiveFilters({
  filters,
  level,
  change,
  onClear,
}: {
  filters: MonitorFilters;
  level: string | null;
  change: (next: Partial<MonitorFilters>) => void;
  onClear: () => void;
}) {
  const translate = useTranslate();
  const { owners } = useOwnerTree(level === Level.Admin || level === Level.Enterprise);
  const [search, setSearch] = useState(filters.q);
  useEffect(() => setSearch(filters.q), [filters.q]);
  useEffect(() => {
    if (search === filters.q) return undefined;
    const timer = setTimeout(() => change({ q: search }), 350);
    return () => clearTimeout(timer);
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  const subOwners = owners.filter((o) => !filters.owner || o.id === filters.owner).flatMap((o) => o.children);

  return (
    <Stack
      direction="row"
      sx={{ gap: 1, mb: 1.5, flexWrap: 'wrap', '& > .MuiTextField-root': { flex: { xs: '1 1 140px', sm: '0 0 auto' } } }}
    >
      <TextField
        size="small"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={translate('monitor.filter.search')}
        slotProps={{
          htmlInput: { 'data-testid': 'monitor-search', maxLength: 64 },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ minWidth: { sm: 260 }, flexBasis: { xs: '100% !important', sm: 'auto' } }}
      />
      <TextField
        select
        size="small"
        label={translate('monitor.filter.kind')}
        value={filters.kind ?? ''}
        onChange={(e) => change({ kind: e.target.value || null })}
        sx={{ minWidth: 140 }}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'filter-kind' } as object } }}
      >
        <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
        {DEVICE_KINDS.map((k) => (
          <MenuItem key={k} value={k}>
            {translate(DEVICE_KIND_KEYS[k])}
          </MenuItem>
        ))}
      </TextField>
      {level === Level.Admin && (
        <TextField
          select
          size="small"
          label={translate('monitor.filter.owner')}
          value={filters.owner ?? ''}
          onChange={(e) => change({ owner: Number(e.target.value) || null, sub: null })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
          {owners.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {(level === Level.Admin || level === Level.Enterprise) && (
        <TextField
          select
          size="small"
          label={translate('monitor.filter.subOwner')}
          value={filters.sub ?? ''}
          onChange={(e) => change({ sub: Number(e.target.value) || null })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
          {subOwners.map((o) => (
            <MenuItem key={o.id} value={o.id}>
              {o.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        size="small"
        label={translate('monitor.filter.link')}
        value={filters.link ?? ''}
        onChange={(e) => change({ link: e.target.value === 'backup' ? 'backup' : null })}
        sx={{ minWidth: 140 }}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'filter-link' } as object } }}
      >
        <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
        <MenuItem value="backup">{translate('monitor.filter.onBackup')}</MenuItem>
      </TextField>
      {(filters.state || filters.kind || filters.owner || filters.sub || filters.link || filters.q) && (
        <Button
          size="small"
          onClick={() => {
            setSearch('');
            onClear();
          }}
        >
          {translate('monitor.filter.clear')}
        </Button>
      )}
    </Stack>
  );
}

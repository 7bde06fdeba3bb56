import { useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGetList, useNotify } from 'react-admin';
import type { PermissionGroup } from '../../api/supportApi';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import type { User } from '../../domain/user';
import { useTranslate } from 'ra-core';

type UserItem = Pick<User, 'id' | 'name' | 'permissionLevel'>;

/** A user's groups as checkboxes; they start from the stored ones (remounted when those change). */
function UserGroups({ user, groups, stored }: { user: UserItem; groups: PermissionGroup[]; stored: number[] }) {
  const t = useTranslate();
  const notify = useNotify();
  const [chosen, setChosen] = useState<number[]>(stored);
  // Refetches this user's groups and the groups' members; a refusal is shown by the catalogue.
  const setUserGroups = useCallMutation(
    'support',
    'setUserGroups',
    { calls: ['support'] },
    {
      onSuccess: () => notify(t('support.permission.saved'), { type: 'success' }),
    },
  );
  return (
    <Box>
      <FormGroup row>
        {groups.map((g) => (
          <FormControlLabel
            key={g.id}
            label={g.name}
            control={
              <Checkbox
                size="small"
                checked={chosen.includes(g.id)}
                onChange={() => setChosen((c) => (c.includes(g.id) ? c.filter((x) => x !== g.id) : [...c, g.id]))}
              />
            }
          />
        ))}
      </FormGroup>
      <Button
        variant="contained"
        onClick={() => setUserGroups.mutate([user.id, chosen])}
        disabled={setUserGroups.isPending}
        sx={{ mt: 1 }}
        data-testid="perm-assign-save"
      >
        {t('support.permission.save')}
      </Button>
    </Box>
  );
}

/** Groups assigned to a user: pick the user, tick the groups, save. */
export function AssignGroups({ groups }: { groups: PermissionGroup[] }) {
  const t = useTranslate();
  const { data: all } = useGetList<UserItem>('system/user', {
    pagination: { page: 1, perPage: 500 },
    sort: { field: 'name', order: 'ASC' },
  });
  const users = useMemo(() => (all ?? []).filter((u) => u.id !== 1), [all]);
  const [user, setUser] = useState<UserItem | null>(null);
  const userGroups = useCallQuery('support', 'userGroups', user ? [user.id] : null);
  // A failed read shows no group ticked.
  const stored = userGroups.data ?? (userGroups.isError ? [] : null);
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {t('support.permission.assign')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('support.permission.userHint')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
        <Autocomplete
          options={users}
          value={user}
          onChange={(_, v) => setUser(v)}
          getOptionLabel={(u) => `${u.name} (${t(`console.level.${u.permissionLevel}`)})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          sx={{ minWidth: 260 }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('support.permission.user')}
              slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'perm-user' } }}
            />
          )}
        />
        {user && stored && <UserGroups key={`${user.id}:${stored.join(',')}`} user={user} groups={groups} stored={stored} />}
      </Stack>
    </Paper>
  );
}

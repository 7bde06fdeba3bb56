import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Confirm, useGetList, useNotify } from 'react-admin';
import type { PermissionGroup } from '../../api/supportApi';
import { useCallMutation, useCallQuery } from '../../data/dataHooks';
import { PERMISSION_ACTIONS, PERMISSION_MODULES, permissionGroupSchema, permissionName } from '../../domain/permissionGroups';
import type { User } from '../../domain/user';
import { validate } from '../../domain/validate';
import { useTranslate } from 'ra-core';

interface Draft {
  id?: number;
  name: string;
  description: string;
  permissions: string[];
}
const EMPTY: Draft = { name: '', description: '', permissions: [] };

/** The grid of modules by actions: a checkbox only where the action exists for the module. */
function PermissionGrid({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const t = useTranslate();
  const has = (p: string) => value.includes(p);
  const toggle = (p: string) => onChange(has(p) ? value.filter((x) => x !== p) : [...value, p]);
  const rowAll = (key: string) => PERMISSION_MODULES.find((m) => m.key === key)!.actions.map((a) => permissionName(a, key));
  // Each permission's name in the language ("用户：查看", "User: View"), never its code ("viewuser").
  const moduleName = (key: string) => t(`support.permission.modules.${key}`);
  const label = (action: string, key: string) => t('support.permission.permissionLabel', { module: moduleName(key), action: t(`support.permission.action.${action}`) });
  return (
    <Box sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" data-testid="perm-grid" sx={{ '& td, & th': { whiteSpace: 'nowrap', py: 0.25 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('support.permission.module')}</TableCell>
            {PERMISSION_ACTIONS.map((a) => <TableCell key={a} align="center">{t(`support.permission.action.${a}`)}</TableCell>)}
            <TableCell align="center">{t('support.permission.selectAll')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {PERMISSION_MODULES.map((m) => {
            const all = rowAll(m.key);
            const every = all.every(has);
            return (
              <TableRow key={m.key} hover>
                <TableCell>
                  {t(`support.permission.modules.${m.key}`)}
                  {m.enforced && <Chip size="small" label="✓" color="primary" variant="outlined" sx={{ ml: 1, height: 18 }} />}
                </TableCell>
                {PERMISSION_ACTIONS.map((a) => {
                  const p = permissionName(a, m.key);
                  return (
                    <TableCell key={a} align="center">
                      {m.actions.includes(a)
                        ? <Checkbox size="small" checked={has(p)} onChange={() => toggle(p)} slotProps={{ input: { 'aria-label': label(a, m.key), 'data-testid': `perm-${p}` } as object }} />
                        : <Typography component="span" color="text.disabled">–</Typography>}
                    </TableCell>
                  );
                })}
                <TableCell align="center">
                  <Checkbox size="small" checked={every} indeterminate={!every && all.some(has)}
                    onChange={() => onChange(every ? value.filter((p) => !all.includes(p)) : [...new Set([...value, ...all])])}
                    slotProps={{ input: { 'aria-label': t('support.permission.rowAllLabel', { module: moduleName(m.key) }) } }} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

/** One group's form; it starts from the stored group (the page remounts it when that changes). */
function GroupEditor({ draft, onSaved, onDeleted }: { draft: Draft; onSaved: (g: PermissionGroup) => void; onDeleted: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState<Draft>(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState(false);
  // Both refetch the groups (and each user's groups) before going on; a refusal (a duplicate name: code 9) is shown by the catalogue.
  const saveGroup = useCallMutation('support', 'saveGroup', { calls: ['support'] }, {
    onSuccess: (saved) => {
      notify(t('support.permission.saved'), { type: 'success' });
      onSaved(saved);
    },
  });
  const deleteGroup = useCallMutation('support', 'deleteGroup', { calls: ['support'] }, {
    onSuccess: () => {
      notify(t('support.permission.deleted'), { type: 'success' });
      onDeleted();
    },
  });
  const save = () => {
    const checked = validate(permissionGroupSchema, form);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    saveGroup.mutate([{ ...checked.value, id: form.id }]);
  };
  const remove = () => {
    setConfirm(false);
    if (form.id) deleteGroup.mutate([form.id]);
  };
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField label={t('support.permission.groupName')} value={form.name} required onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={Boolean(errors.name)} helperText={errors.name ? t(errors.name) : ' '} slotProps={{ htmlInput: { 'data-testid': 'perm-name', maxLength: 32 } }} sx={{ minWidth: 220 }} />
        <TextField label={t('support.permission.description')} value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })}
          helperText=" " sx={{ flex: 1 }} slotProps={{ htmlInput: { maxLength: 200 } }} />
      </Stack>
      <PermissionGrid value={form.permissions} onChange={(permissions) => setForm({ ...form, permissions })} />
      <Typography variant="caption" color="text.secondary">✓ {t('support.permission.enforcedNote')}</Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={save} disabled={saveGroup.isPending} data-testid="perm-save">{t('support.permission.save')}</Button>
        {form.id && <Button color="error" onClick={() => setConfirm(true)} disabled={deleteGroup.isPending}>{t('support.permission.delete')}</Button>}
      </Stack>
      <Confirm isOpen={confirm} title={t('support.permission.delete')} content={t('support.permission.deleteConfirm', { name: form.name })} onConfirm={remove} onClose={() => setConfirm(false)} />
    </Stack>
  );
}

type UserItem = Pick<User, 'id' | 'name' | 'permissionLevel'>;

/** A user's groups as checkboxes; they start from the stored ones (remounted when those change). */
function UserGroups({ user, groups, stored }: { user: UserItem; groups: PermissionGroup[]; stored: number[] }) {
  const t = useTranslate();
  const notify = useNotify();
  const [chosen, setChosen] = useState<number[]>(stored);
  // Refetches this user's groups and the groups' members; a refusal is shown by the catalogue.
  const setUserGroups = useCallMutation('support', 'setUserGroups', { calls: ['support'] }, {
    onSuccess: () => notify(t('support.permission.saved'), { type: 'success' }),
  });
  return (
    <Box>
      <FormGroup row>
        {groups.map((g) => (
          <FormControlLabel key={g.id} label={g.name}
            control={<Checkbox size="small" checked={chosen.includes(g.id)} onChange={() => setChosen((c) => (c.includes(g.id) ? c.filter((x) => x !== g.id) : [...c, g.id]))} />} />
        ))}
      </FormGroup>
      <Button variant="contained" onClick={() => setUserGroups.mutate([user.id, chosen])} disabled={setUserGroups.isPending} sx={{ mt: 1 }} data-testid="perm-assign-save">{t('support.permission.save')}</Button>
    </Box>
  );
}

function AssignGroups({ groups }: { groups: PermissionGroup[] }) {
  const t = useTranslate();
  const { data: all } = useGetList<UserItem>('system/user', { pagination: { page: 1, perPage: 500 }, sort: { field: 'name', order: 'ASC' } });
  const users = useMemo(() => (all ?? []).filter((u) => u.id !== 1), [all]);
  const [user, setUser] = useState<UserItem | null>(null);
  const userGroups = useCallQuery('support', 'userGroups', user ? [user.id] : null);
  // A failed read shows no group ticked.
  const stored = userGroups.data ?? (userGroups.isError ? [] : null);
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>{t('support.permission.assign')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>{t('support.permission.userHint')}</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
        <Autocomplete options={users} value={user} onChange={(_, v) => setUser(v)} getOptionLabel={(u) => `${u.name} (${t(`console.level.${u.permissionLevel}`)})`}
          isOptionEqualToValue={(a, b) => a.id === b.id} sx={{ minWidth: 260 }}
          renderInput={(params) => <TextField {...params} label={t('support.permission.user')} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'perm-user' } }} />} />
        {user && stored && <UserGroups key={`${user.id}:${stored.join(',')}`} user={user} groups={groups} stored={stored} />}
      </Stack>
    </Paper>
  );
}

/**
 * System > Permission Config (/system/permissionConfig, level 1): permission groups of
 * docs/requirements.md §3 defined as a grid of modules by actions, and assigned to users. The server enforces
 * them on the user and machine modules (server/auth/permissionGuard.ts).
 */
export default function PermissionConfigPage() {
  const t = useTranslate();
  const { data, isError } = useCallQuery('support', 'groups', []);
  const groups = data?.list ?? null;
  // The chosen group (null: the first one); one no longer there (deleted) falls back to the first too.
  const [chosen, setChosen] = useState<number | 'new' | null>(null);
  const selected = groups === null ? null : chosen === 'new' ? 'new' : (groups.find((g) => g.id === chosen) ?? groups[0])?.id ?? 'new';
  const draft = useMemo<Draft>(() => {
    const g = groups?.find((x) => x.id === selected);
    return g ? { id: g.id, name: g.name, description: g.description ?? '', permissions: g.permissions } : { ...EMPTY };
  }, [groups, selected]);
  // The page's one h1, the menu's name (one name per page), also above a load error.
  const heading = <Typography variant="h6" component="h1">{t('support.permission.title')}</Typography>;
  if (isError) {
    return (
      <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }} data-testid="permission-config">
        {heading}
        <Alert severity="error">{t('support.fault.loadError')}</Alert>
      </Stack>
    );
  }
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }} data-testid="permission-config">
      {heading}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0, boxSizing: 'border-box' }}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
            <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>{t('support.permission.groups')}</Typography>
            <Button size="small" startIcon={<AddIcon />} onClick={() => setChosen('new')} data-testid="perm-new">{t('support.permission.newGroup')}</Button>
          </Stack>
          {groups?.length === 0 && <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>{t('support.permission.noGroups')}</Typography>}
          {/* A list holds list items only (axe: list): each button sits in its li. */}
          <List dense disablePadding aria-label={t('support.permission.groups')}>
            {groups?.map((g) => (
              <ListItem key={g.id} disablePadding>
                <ListItemButton selected={selected === g.id} onClick={() => setChosen(g.id)}>
                  <ListItemText primary={g.name} secondary={`${t('support.permission.members')}: ${g.members.map((m) => m.name).join(', ') || '—'}`} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0, width: '100%', boxSizing: 'border-box' }}>
          {groups && selected !== null && (
            <GroupEditor key={JSON.stringify(draft)} draft={draft} onSaved={(g) => setChosen(g.id)} onDeleted={() => setChosen(null)} />
          )}
        </Paper>
      </Stack>
      {groups && <AssignGroups groups={groups} />}
    </Stack>
  );
}

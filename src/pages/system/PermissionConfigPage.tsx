import { useCallback, useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import List from '@mui/material/List';
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
import { Confirm, useNotify } from 'react-admin';
import { request } from '../../api';
import { supportApi, type PermissionGroup } from '../../api/supportApi';
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
                        ? <Checkbox size="small" checked={has(p)} onChange={() => toggle(p)} slotProps={{ input: { 'aria-label': p, 'data-testid': `perm-${p}` } as object }} />
                        : <Typography component="span" color="text.disabled">–</Typography>}
                    </TableCell>
                  );
                })}
                <TableCell align="center">
                  <Checkbox size="small" checked={every} indeterminate={!every && all.some(has)}
                    onChange={() => onChange(every ? value.filter((p) => !all.includes(p)) : [...new Set([...value, ...all])])}
                    slotProps={{ input: { 'aria-label': `${m.key} *` } }} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

function GroupEditor({ draft, onSaved, onDeleted }: { draft: Draft; onSaved: (g: PermissionGroup) => void; onDeleted: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const [form, setForm] = useState<Draft>(draft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirm, setConfirm] = useState(false);
  useEffect(() => {
    setForm(draft);
    setErrors({});
  }, [draft]);
  const save = async () => {
    const checked = validate(permissionGroupSchema, form);
    if (!checked.ok) return setErrors(Object.fromEntries(checked.errors.map((e) => [e.field, e.message])));
    setErrors({});
    try {
      const saved = await supportApi.saveGroup({ ...checked.value, id: form.id });
      notify(t('support.permission.saved'), { type: 'success' });
      onSaved(saved);
    } catch {
      /* shown by the catalogue (a duplicate name: code 9) */
    }
  };
  const remove = async () => {
    setConfirm(false);
    if (!form.id) return;
    try {
      await supportApi.deleteGroup(form.id);
      notify(t('support.permission.deleted'), { type: 'success' });
      onDeleted();
    } catch {
      /* shown by the catalogue */
    }
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
        <Button variant="contained" onClick={save} data-testid="perm-save">{t('support.permission.save')}</Button>
        {form.id && <Button color="error" onClick={() => setConfirm(true)}>{t('support.permission.delete')}</Button>}
      </Stack>
      <Confirm isOpen={confirm} title={t('support.permission.delete')} content={t('support.permission.deleteConfirm', { name: form.name })} onConfirm={remove} onClose={() => setConfirm(false)} />
    </Stack>
  );
}

type UserItem = Pick<User, 'id' | 'name' | 'permissionLevel'>;

function AssignGroups({ groups, onChanged }: { groups: PermissionGroup[]; onChanged: () => void }) {
  const t = useTranslate();
  const notify = useNotify();
  const [users, setUsers] = useState<UserItem[]>([]);
  const [user, setUser] = useState<UserItem | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  useEffect(() => {
    request<{ list: UserItem[] }>('/users/getAll', { query: { pageSize: 500, sort: 'name', order: 'asc' } }).then((r) => setUsers(r.list.filter((u) => u.id !== 1)), () => undefined);
  }, []);
  useEffect(() => {
    if (!user) return setChosen([]);
    supportApi.userGroups(user.id).then(setChosen, () => setChosen([]));
  }, [user]);
  const save = async () => {
    if (!user) return;
    try {
      setChosen(await supportApi.setUserGroups(user.id, chosen));
      notify(t('support.permission.saved'), { type: 'success' });
      onChanged();
    } catch {
      /* shown by the catalogue */
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>{t('support.permission.assign')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>{t('support.permission.userHint')}</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
        <Autocomplete options={users} value={user} onChange={(_, v) => setUser(v)} getOptionLabel={(u) => `${u.name} (${t(`console.level.${u.permissionLevel}`)})`}
          isOptionEqualToValue={(a, b) => a.id === b.id} sx={{ minWidth: 260 }}
          renderInput={(params) => <TextField {...params} label={t('support.permission.user')} slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'perm-user' } }} />} />
        {user && (
          <Box>
            <FormGroup row>
              {groups.map((g) => (
                <FormControlLabel key={g.id} label={g.name}
                  control={<Checkbox size="small" checked={chosen.includes(g.id)} onChange={() => setChosen((c) => (c.includes(g.id) ? c.filter((x) => x !== g.id) : [...c, g.id]))} />} />
              ))}
            </FormGroup>
            <Button variant="contained" onClick={save} sx={{ mt: 1 }} data-testid="perm-assign-save">{t('support.permission.save')}</Button>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * System > Permission Config (/system/permissionConfig, level 1): permission groups of SPEC
 * section 3 defined as a grid of modules by actions, and assigned to users. The server enforces
 * them on the user and machine modules (server/auth/permissionGuard.ts).
 */
export default function PermissionConfigPage() {
  const t = useTranslate();
  const [groups, setGroups] = useState<PermissionGroup[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const load = useCallback(() => supportApi.groups().then((r) => { setGroups(r.list); return r.list; }, () => { setFailed(true); return []; }), []);
  useEffect(() => {
    void load().then((list) => setSelected((s) => s ?? list[0]?.id ?? 'new'));
  }, [load]);
  const draft = useMemo<Draft>(() => {
    const g = groups?.find((x) => x.id === selected);
    return g ? { id: g.id, name: g.name, description: g.description ?? '', permissions: g.permissions } : { ...EMPTY };
  }, [groups, selected]);
  if (failed) return <Alert severity="error" sx={{ m: 2 }}>{t('support.fault.loadError')}</Alert>;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }} data-testid="permission-config">
      <Typography variant="h6">{t('support.permission.title')}</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ width: { xs: '100%', md: 240 }, flexShrink: 0, boxSizing: 'border-box' }}>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
            <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>{t('support.permission.groups')}</Typography>
            <Button size="small" startIcon={<AddIcon />} onClick={() => setSelected('new')} data-testid="perm-new">{t('support.permission.newGroup')}</Button>
          </Stack>
          <List dense disablePadding>
            {groups?.length === 0 && <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>{t('support.permission.noGroups')}</Typography>}
            {groups?.map((g) => (
              <ListItemButton key={g.id} selected={selected === g.id} onClick={() => setSelected(g.id)}>
                <ListItemText primary={g.name} secondary={`${t('support.permission.members')}: ${g.members.map((m) => m.name).join(', ') || '—'}`} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
        <Paper variant="outlined" sx={{ p: 2, flex: 1, minWidth: 0, width: '100%', boxSizing: 'border-box' }}>
          {groups && selected !== null && (
            <GroupEditor draft={draft} onSaved={(g) => { void load(); setSelected(g.id); }} onDeleted={() => { void load().then((list) => setSelected(list[0]?.id ?? 'new')); }} />
          )}
        </Paper>
      </Stack>
      {groups && <AssignGroups groups={groups} onChanged={() => void load()} />}
    </Stack>
  );
}

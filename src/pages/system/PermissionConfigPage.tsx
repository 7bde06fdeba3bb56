import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { useCallQuery } from '../../data/dataHooks';
import { useTranslate } from 'ra-core';
import { AssignGroups } from './AssignGroups';
import { GroupEditor, type Draft } from './GroupEditor';

const EMPTY: Draft = { name: '', description: '', permissions: [] };

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
  const selected = groups === null ? null : chosen === 'new' ? 'new' : ((groups.find((g) => g.id === chosen) ?? groups[0])?.id ?? 'new');
  const draft = useMemo<Draft>(() => {
    const g = groups?.find((x) => x.id === selected);
    return g ? { id: g.id, name: g.name, description: g.description ?? '', permissions: g.permissions } : { ...EMPTY };
  }, [groups, selected]);
  // The page's one h1, the menu's name (one name per page), also above a load error.
  const heading = (
    <Typography variant="h6" component="h1">
      {t('support.permission.title')}
    </Typography>
  );
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
            <Typography variant="subtitle2" sx={{ fontWeight: 600 }}>
              {t('support.permission.groups')}
            </Typography>
            <Button size="small" startIcon={<AddIcon />} onClick={() => setChosen('new')} data-testid="perm-new">
              {t('support.permission.newGroup')}
            </Button>
          </Stack>
          {groups?.length === 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
              {t('support.permission.noGroups')}
            </Typography>
          )}
          {/* A list holds list items only (axe: list): each button sits in its li. */}
          <List dense disablePadding aria-label={t('support.permission.groups')}>
            {groups?.map((g) => (
              <ListItem key={g.id} disablePadding>
                <ListItemButton selected={selected === g.id} onClick={() => setChosen(g.id)}>
                  <ListItemText
                    primary={g.name}
                    secondary={`${t('support.permission.members')}: ${g.members.map((m) => m.name).join(', ') || '—'}`}
                  />
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

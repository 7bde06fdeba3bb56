import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { PERMISSION_ACTIONS, PERMISSION_MODULES, permissionName } from '../../domain/permissionGroups';
import { useTranslate } from 'ra-core';

/** The grid of modules by actions: a checkbox only where the action exists for the module. */
export function PermissionGrid({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const t = useTranslate();
  const has = (p: string) => value.includes(p);
  const toggle = (p: string) => onChange(has(p) ? value.filter((x) => x !== p) : [...value, p]);
  const rowAll = (key: string) => PERMISSION_MODULES.find((m) => m.key === key)!.actions.map((a) => permissionName(a, key));
  // Each permission's name in the language ("用户：查看", "User: View"), never its code ("viewuser").
  const moduleName = (key: string) => t(`support.permission.modules.${key}`);
  const label = (action: string, key: string) =>
    t('support.permission.permissionLabel', { module: moduleName(key), action: t(`support.permission.action.${action}`) });
  return (
    <Box sx={{ overflowX: 'auto', contain: 'inline-size' }}>
      <Table size="small" data-testid="perm-grid" sx={{ '& td, & th': { whiteSpace: 'nowrap', py: 0.25 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('support.permission.module')}</TableCell>
            {PERMISSION_ACTIONS.map((a) => (
              <TableCell key={a} align="center">
                {t(`support.permission.action.${a}`)}
              </TableCell>
            ))}
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
                      {m.actions.includes(a) ? (
                        <Checkbox
                          size="small"
                          checked={has(p)}
                          onChange={() => toggle(p)}
                          slotProps={{ input: { 'aria-label': label(a, m.key), 'data-testid': `perm-${p}` } as object }}
                        />
                      ) : (
                        <Typography component="span" color="text.disabled">
                          –
                        </Typography>
                      )}
                    </TableCell>
                  );
                })}
                <TableCell align="center">
                  <Checkbox
                    size="small"
                    checked={every}
                    indeterminate={!every && all.some(has)}
                    onChange={() => onChange(every ? value.filter((p) => !all.includes(p)) : [...new Set([...value, ...all])])}
                    slotProps={{ input: { 'aria-label': t('support.permission.rowAllLabel', { module: moduleName(m.key) }) } }}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
}

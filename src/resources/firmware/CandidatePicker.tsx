import type { Dispatch, SetStateAction } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { Candidate } from '../../api/firmwareApi';
import { isDowngrade, isSharedCustomer, type FirmwarePackage } from '../../domain/firmware';
import { UpdateStateChip } from './UpdateStateChip';
import { PAGE_SIZE } from './useCandidates';

/**
 * A rollout's devices chosen one by one: search, a page of the package's candidates with a tick
 * each (and one for the page), the count chosen across pages. An unactivated device or one
 * already updating cannot be ticked.
 */
export function CandidatePicker({
  firmware,
  candidates,
  search,
  onSearch,
  page,
  onPage,
  selected,
  setSelected,
  error,
}: {
  firmware: FirmwarePackage;
  candidates: { list: Candidate[]; total: number } | null;
  search: string;
  onSearch: (search: string) => void;
  page: number;
  onPage: (page: number) => void;
  selected: Set<number>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
  error: string | undefined;
}) {
  const translate = useTranslate();
  const selectable = (c: Candidate) => c.activated && !c.busyState;
  const pageIds = (candidates?.list ?? []).filter(selectable).map((c) => c.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = () =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });

  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {translate(isSharedCustomer(firmware.customer) ? 'firmware.rollout.candidatesHintShared' : 'firmware.rollout.candidatesHint', {
          model: firmware.model,
          deviceType: firmware.deviceType,
          customer: firmware.customer,
        })}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ my: 1, alignItems: { sm: 'center' } }}>
        <TextField
          size="small"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={translate('firmware.rollout.searchDevice')}
          sx={{ minWidth: 240 }}
        />
        <Typography variant="body2" data-testid="fw-selected-count">
          {translate('firmware.rollout.selected', { count: selected.size })}
        </Typography>
      </Stack>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={allOnPage}
                  onChange={togglePage}
                  disabled={!pageIds.length}
                  slotProps={{ input: { 'aria-label': translate('firmware.rollout.selectAllPage') } }}
                />
              </TableCell>
              <TableCell>{translate('firmware.rollout.device')}</TableCell>
              <TableCell>{translate('firmware.rollout.deviceNum')}</TableCell>
              <TableCell>{translate('firmware.rollout.owner')}</TableCell>
              <TableCell>{translate('firmware.rollout.groupName')}</TableCell>
              <TableCell>{translate('firmware.rollout.currentVersion')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {candidates?.list.map((c) => (
              <TableRow key={c.id} hover data-testid={`fw-candidate-${c.id}`}>
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={selected.has(c.id)}
                    disabled={!selectable(c)}
                    onChange={() => toggle(c.id)}
                    slotProps={{ input: { 'aria-label': c.name } }}
                  />
                </TableCell>
                <TableCell>{c.name}</TableCell>
                <TableCell>{c.deviceNum ?? ''}</TableCell>
                <TableCell>{c.ownerName ?? ''}</TableCell>
                <TableCell>{c.groupName ?? ''}</TableCell>
                <TableCell>
                  {`ADU ${c.aduVersion} · BDU ${c.bduVersion}`}
                  {isDowngrade(firmware.version, c.aduVersion) && (
                    <Typography
                      component="span"
                      variant="caption"
                      data-testid={`fw-downgrade-${c.id}`}
                      sx={{
                        ml: 1,
                        px: 0.75,
                        py: 0.25,
                        borderRadius: 1,
                        bgcolor: 'warning.light',
                        color: 'warning.contrastText',
                        fontWeight: 600,
                      }}
                    >
                      {translate('firmware.rollout.downgrade')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  {c.busyState ? (
                    <UpdateStateChip state={c.busyState} />
                  ) : !c.activated ? (
                    <Typography variant="caption" color="text.secondary">
                      {translate('firmware.rollout.notActivated')}
                    </Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
            {candidates && !candidates.list.length && (
              <TableRow>
                <TableCell colSpan={7}>
                  <Typography variant="body2" color="text.secondary">
                    {translate('firmware.rollout.noCandidates')}
                  </Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
        count={candidates?.total ?? 0}
        page={page}
        rowsPerPage={PAGE_SIZE}
        rowsPerPageOptions={[PAGE_SIZE]}
        onPageChange={(_, p) => onPage(p)}
        labelDisplayedRows={({ from, to, count }) =>
          translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
        }
      />
      {error && (
        <Typography variant="caption" color="error">
          {error}
        </Typography>
      )}
    </Box>
  );
}

import { useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { FAULT_SEVERITIES } from '../../domain/faultCodes';
import { ExportButton } from '../../layout/ExportButton';
import { ALARM_SHOWS, type AlarmShow } from './alarmModel';

/**
 * The alarm list's filters (active / cleared / all, severity, unacknowledged only) and its actions
 * on the ticked alarms: acknowledge those not yet acknowledged, clear (when the level may); export
 * what the filters select.
 */
export function AlarmToolbar({
  show,
  onShow,
  severity,
  onSeverity,
  unackedOnly,
  onUnackedOnly,
  busy,
  ackable,
  ids,
  canClear,
  onAcknowledge,
  onClear,
  onExport,
}: {
  show: AlarmShow;
  onShow: (show: AlarmShow) => void;
  severity: string;
  onSeverity: (severity: string) => void;
  unackedOnly: boolean;
  onUnackedOnly: (on: boolean) => void;
  busy: boolean;
  ackable: number[];
  ids: number[];
  canClear: boolean;
  onAcknowledge: (ids: number[]) => void;
  onClear: (ids: number[]) => void;
  /** Saves every alarm the filters select (all pages). */
  onExport: () => Promise<string>;
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" sx={{ gap: 1, mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={show}
        onChange={(_, v: AlarmShow | null) => {
          if (v) onShow(v);
        }}
      >
        {ALARM_SHOWS.map((v) => (
          <ToggleButton key={v} value={v} data-testid={`alarms-show-${v}`}>
            {translate(`monitor.alarms.${v}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        select
        size="small"
        label={translate('monitor.alarms.severity')}
        value={severity}
        onChange={(e) => onSeverity(e.target.value)}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="">{translate('monitor.filter.any')}</MenuItem>
        {FAULT_SEVERITIES.map((s) => (
          <MenuItem key={s} value={s}>
            {translate(`monitor.alarms.severities.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Switch size="small" checked={unackedOnly} onChange={(e) => onUnackedOnly(e.target.checked)} />}
        label={translate('monitor.alarms.unacknowledgedOnly')}
      />
      <Box sx={{ flex: 1, display: { xs: 'none', md: 'block' } }} />
      <Button
        size="small"
        variant="contained"
        disabled={busy || ackable.length === 0}
        onClick={() => onAcknowledge(ackable)}
        data-testid="alarms-ack-selected"
      >
        {translate('monitor.alarms.acknowledgeSelected', { smart_count: ackable.length })}
      </Button>
      {canClear && (
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={busy || ids.length === 0}
          onClick={() => onClear(ids)}
          data-testid="alarms-clear-selected"
        >
          {translate('monitor.alarms.clearSelected', { smart_count: ids.length })}
        </Button>
      )}
      <ExportButton onExport={onExport} testId="alarms-export" />
    </Stack>
  );
}

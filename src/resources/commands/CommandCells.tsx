import Chip from '@mui/material/Chip';
import type { RaRecord } from 'react-admin';
import { useTranslate } from 'ra-core';
import { isRebooting, type DeviceCommand } from '../../domain/commands';
import { COMMAND_STATE_COLORS } from './commandStates';
import { commandOutcome, commandParamsText, commandStateKey } from '../../domain/commandOutcome';

/** A command's state as a coloured chip; a reboot under way reads "Rebooting" (data-state keeps the API's state). */
export function CommandStateChip({ command }: { command: Pick<DeviceCommand, 'kind' | 'state'> }) {
  const t = useTranslate();
  const { state } = command;
  return (
    <Chip
      size="small"
      color={isRebooting(command) ? 'warning' : COMMAND_STATE_COLORS[state]}
      variant={state === 'queued' ? 'outlined' : 'filled'}
      label={t(commandStateKey(command))}
      data-state={state}
      data-value={state}
    />
  );
}

/** A sentence wraps, but never into a column narrower than a few words (phones scroll the table sideways). */
const SENTENCE = { display: 'inline-block', minWidth: 200, maxWidth: 360, verticalAlign: 'bottom' } as const;

/** What came of the command, as a sentence in the reader's language (the full text as its tooltip). */
export function CommandOutcome({ command }: { command: DeviceCommand }) {
  const t = useTranslate();
  const text = commandOutcome(t, command);
  return (
    <span title={text} style={SENTENCE} data-testid="command-outcome">
      {text}
    </span>
  );
}

/** The generic list's cells (definition columns' component). */
export const StateCell = ({ record }: { record: RaRecord }) => <CommandStateChip command={record as unknown as DeviceCommand} />;
export const OutcomeCell = ({ record }: { record: RaRecord }) => <CommandOutcome command={record as unknown as DeviceCommand} />;
export function ParamsCell({ record }: { record: RaRecord }) {
  const t = useTranslate();
  return <>{commandParamsText(t, record as unknown as DeviceCommand)}</>;
}

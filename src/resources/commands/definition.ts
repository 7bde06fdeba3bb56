import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { COMMAND_KINDS, COMMAND_STATES } from '../../domain/commands';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { COMMANDS_RESOURCE } from '../../data/resourceNames';
import type { ResourceDefinition } from '../types';
import { VESSEL_REFERENCE } from '../references';
import { lazyView } from '../lazyView';
import { COMMAND_STATE_COLORS } from './commandStates';

/** The cells that read as words (state, parameters, result), loaded with the list. */
const cells = () => import('./CommandCells');
const StateCell = lazyView(cells, (m) => m.StateCell);
const ParamsCell = lazyView(cells, (m) => m.ParamsCell);
const OutcomeCell = lazyView(cells, (m) => m.OutcomeCell);

const M = '/deviceModule/command';
export const COMMANDS = COMMANDS_RESOURCE;

export { COMMAND_STATE_COLORS };

/**
 * Commands to antennas: every command sent to the caller's visible vessels, newest
 * first, filtered by state, kind and vessel; read by every level (the server scopes it). Above the
 * list, the page's title and a form to send a command to one or many vessels (CommandListPanel, with
 * the vessel page's dialog and confirmation); the device list sends to its ticked rows.
 * State, parameters and result read as words in the user's language (src/domain/commandOutcome.ts).
 */
export const commandsResource: ResourceDefinition = {
  name: COMMANDS,
  access: { list: PAGE_LEVELS.all, show: PAGE_LEVELS.all },
  menu: { group: 'device', order: 70, titleKey: 'commands.menu', icon: SettingsRemoteIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: ['deviceId', 'state', 'kind'], sortable: ['id'] },
    one: { path: `${M}/getById` },
    export: { path: `${M}/export` },
  },
  fields: [],
  columns: [
    { source: 'deviceName' },
    { source: 'kind', kind: 'choice', choicePrefix: 'commands.kind.' },
    { source: 'params', kind: 'json', component: ParamsCell },
    { source: 'state', kind: 'chip', choicePrefix: 'commands.state.', chipColors: COMMAND_STATE_COLORS, component: StateCell },
    { source: 'createdByName' },
    { source: 'createdAt', kind: 'datetime' },
    { source: 'sentAt', kind: 'datetime' },
    { source: 'ackedAt', kind: 'datetime' },
    { source: 'result', kind: 'json', component: OutcomeCell },
  ],
  filters: [
    { source: 'deviceId', kind: 'reference', reference: VESSEL_REFERENCE, alwaysOn: true },
    { source: 'state', kind: 'select', alwaysOn: true, choices: COMMAND_STATES.map((s) => ({ id: s, nameKey: `commands.state.${s}` })) },
    { source: 'kind', kind: 'select', alwaysOn: true, choices: COMMAND_KINDS.map((k) => ({ id: k, nameKey: `commands.kind.${k}` })) },
  ],
  sort: { field: 'id', order: 'DESC' },
  recordRepresentation: 'kind',
  listPanel: lazyView(
    () => import('./CommandListPanel'),
    (m) => m.CommandListPanel,
  ),
  show: true,
};

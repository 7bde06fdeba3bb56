import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import { COMMAND_KINDS, COMMAND_STATES, type CommandState } from '../../domain/commands';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { COMMANDS_RESOURCE } from '../../data/resourceNames';
import type { ResourceDefinition } from '../types';

const M = '/deviceModule/command';
export const COMMANDS = COMMANDS_RESOURCE;
const DEVICES = { resource: 'system/deviceManagement', optionText: 'name', searchField: 'search' };

/** A command's state as a chip colour (the fleet list and the vessel page's Commands section). */
export const COMMAND_STATE_COLORS: Readonly<Record<CommandState, 'default' | 'info' | 'success' | 'error' | 'warning'>> = {
  queued: 'default',
  sent: 'info',
  acknowledged: 'success',
  failed: 'error',
  expired: 'warning',
  cancelled: 'default',
};

/**
 * Commands to antennas: every command sent to the caller's visible vessels, newest
 * first, filtered by state, kind and vessel; read by every level (the server scopes it). Commands
 * are sent from a vessel's detail page (src/pages/vessel/CommandSection.tsx), where the caller's
 * right to command that vessel is known, so the list has no create page.
 */
export const commandsResource: ResourceDefinition = {
  name: COMMANDS,
  access: { list: PAGE_LEVELS.all, show: PAGE_LEVELS.all },
  menu: { group: 'device', order: 70, titleKey: 'commands.menu', icon: SettingsRemoteIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: ['deviceId', 'state', 'kind'], sortable: ['id'] },
    one: { path: `${M}/getById` },
  },
  fields: [],
  columns: [
    { source: 'deviceName' },
    { source: 'kind', kind: 'choice', choicePrefix: 'commands.kind.' },
    { source: 'params', kind: 'json' },
    { source: 'state', kind: 'chip', choicePrefix: 'commands.state.', chipColors: COMMAND_STATE_COLORS },
    { source: 'createdByName' },
    { source: 'createdAt', kind: 'datetime' },
    { source: 'sentAt', kind: 'datetime' },
    { source: 'ackedAt', kind: 'datetime' },
    { source: 'message' },
    { source: 'result', kind: 'json' },
  ],
  filters: [
    { source: 'deviceId', kind: 'reference', reference: DEVICES, alwaysOn: true },
    { source: 'state', kind: 'select', alwaysOn: true, choices: COMMAND_STATES.map((s) => ({ id: s, nameKey: `commands.state.${s}` })) },
    { source: 'kind', kind: 'select', alwaysOn: true, choices: COMMAND_KINDS.map((k) => ({ id: k, nameKey: `commands.kind.${k}` })) },
  ],
  sort: { field: 'id', order: 'DESC' },
  recordRepresentation: 'kind',
  show: true,
};

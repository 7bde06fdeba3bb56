import type { DeepStrings } from './raZh';
import type { commandsZh } from './commandsZh';

/** Strings of the commands to antennas, in English; the same keys as commandsZh.ts. */
export const commandsEn: DeepStrings<typeof commandsZh> = {
  menu: 'Commands',
  section: 'Commands',
  recent: 'Recent commands',
  none: 'No commands yet',
  readOnly: "You can see this vessel's commands but not send them (a sub-user needs its enterprise's grant)",
  send: 'Send',
  sending: 'Sending…',
  kind: { reboot: 'Reboot', repoint: 'Re-point', setInterval: 'Set report interval', diagnostics: 'Request diagnostics', firmwareCheck: 'Firmware check' },
  state: { queued: 'Queued', sent: 'Sent', acknowledged: 'Acknowledged', failed: 'Failed', expired: 'Expired', cancelled: 'Cancelled' },
  satellite: 'Satellite',
  longitude: '%{longitude}°',
  seconds: 'Report interval (seconds)',
  secondsHint: '5 to 3600 seconds',
  deadlineMinutes: 'Deadline (minutes)',
  deadlineHint: '10 minutes unless given, at most 1440; a command the device has not acknowledged by then expires',
  dialogTitle: '%{kind}: %{name}',
  confirmReboot: '%{name} will be offline for about 30 to 90 seconds while it reboots: no traffic, no reports. Reboot it?',
  confirmRepoint: "%{name}'s satellite link drops until the antenna has locked on the new satellite. Re-point it?",
  disruptive: "This interrupts the vessel's communications",
  cancelCommand: 'Cancel',
  cancelled: 'Command cancelled',
  sentNow: 'Command sent to the device',
  queuedNow: 'The device is offline: the command is queued and delivered when it comes back',
  result: 'Result',
  grantLabel: 'May send commands',
  fields: {
    deviceId: 'Vessel', deviceName: 'Vessel', kind: 'Command', params: 'Parameters', state: 'State', createdByName: 'Sent by',
    createdAt: 'Created', sentAt: 'Sent', ackedAt: 'Acknowledged', message: 'Message', result: 'Result', deadline: 'Deadline',
  },
};

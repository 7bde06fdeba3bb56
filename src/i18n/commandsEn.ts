import { commandWordsEn } from '../domain/commandWordsEn';
import type { DeepStrings } from './raZh';
import type { commandsZh } from './commandsZh';

/** Strings of the commands to antennas, in English; the same keys as commandsZh.ts. */
export const commandsEn: DeepStrings<typeof commandsZh> = {
  ...commandWordsEn,
  menu: 'Commands',
  section: 'Commands',
  recent: 'Recent commands',
  none: 'No commands yet',
  readOnly: "You can see this vessel's commands but not send them (a sub-user needs its enterprise's grant)",
  send: 'Send',
  sending: 'Sending…',
  many: {
    title: 'Send a command',
    intro: 'Pick one or more vessels, then a command; a reboot or a re-point asks you to confirm first.',
    vessels: 'Vessels',
    vesselsHint: 'Search by name, device number or MMSI; pick several',
    pick: 'Pick the vessels first',
    named: '%{smart_count} vessel (%{names}) |||| %{smart_count} vessels (%{names})',
    more: 'and more',
    button: 'Send a command',
    sentMany: 'Sent to %{sent} vessels, %{queued} of them offline and queued',
    refusedMany: 'Not sent to %{refused} vessels: %{names}',
  },
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
};

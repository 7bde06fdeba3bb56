import { useListContext } from 'react-admin';
import type { Device } from '../../domain/device';
import { CommandSender } from '../commands/CommandSender';

/**
 * The device list's bulk "Send a command": the ticked vessels get the command each, with the same
 * dialog and confirmation as on the vessel page (reboot, re-point); the rows are unticked once sent.
 * A sub-user's ungranted vessels are refused by the server and named in the summary.
 */
export function SendCommandSelected() {
  const { selectedIds, data = [], onUnselectItems } = useListContext<Device & { id: number }>();
  const vessels = selectedIds.map((id) => {
    const row = data.find((d) => d.id === id);
    return { id: Number(id), name: row?.name ?? String(id) };
  });
  return <CommandSender layout="menu" vessels={vessels} onSent={() => onUnselectItems()} />;
}

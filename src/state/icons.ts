import { usersApi } from '../api/usersApi';
import { FileType } from '../domain/pictures';
import { setState } from './clientState';

/**
 * docs/requirements.md §4: after the user loads, the enterprise's logo and antenna icons are loaded (the
 * server picks the owner: own id for level 2, parent for level 3, defaults for admins). A missing
 * or failed picture stays null, which means "use the default image".
 */
export async function loadIcons(): Promise<void> {
  try {
    const pictures = await usersApi.pictures();
    const of = (type: number) => pictures.find((p) => p.fileType === type)?.content ?? null;
    setState({
      icons: {
        logo: of(FileType.Logo),
        online: of(FileType.AntennaOnline),
        offline: of(FileType.AntennaOffline),
        alarm: of(FileType.AntennaAlarm),
      },
    });
  } catch {
    setState({ icons: { logo: null, online: null, offline: null, alarm: null } });
  }
}

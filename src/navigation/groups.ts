import type { SvgIconComponent } from '@mui/icons-material';
import SettingsIcon from '@mui/icons-material/Settings';
import SatelliteIcon from '@mui/icons-material/SatelliteAlt';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import PowerIcon from '@mui/icons-material/PowerSettingsNew';
import PersonIcon from '@mui/icons-material/Person';
import type { MenuGroupKey } from './types';

/** The sidebar's groups of docs/requirements.md §2, in order; their pages come from the declarations. */
export const MENU_GROUPS: readonly { key: MenuGroupKey; path: string; titleKey: string; icon: SvgIconComponent }[] = [
  { key: 'system', path: '/system', titleKey: 'menu.system', icon: SettingsIcon },
  { key: 'device', path: '/device', titleKey: 'menu.device', icon: SatelliteIcon },
  { key: 'service', path: '/service', titleKey: 'menu.service', icon: SupportAgentIcon },
  { key: 'activation', path: '/activation', titleKey: 'menu.activation', icon: PowerIcon },
  { key: 'personal', path: '/personal', titleKey: 'menu.personal', icon: PersonIcon },
];

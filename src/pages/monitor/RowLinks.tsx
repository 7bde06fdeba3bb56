import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import TimelineIcon from '@mui/icons-material/Timeline';
import { deviceDetailPath, deviceTrackPath } from './devicePaths';

/** A vessel's detail and track links, in a monitor row and on its card. */
export function RowLinks({ id }: { id: number }) {
  const translate = useTranslate();
  return (
    <>
      <Tooltip title={translate('monitor.detail')}>
        <IconButton
          size="small"
          component={RouterLink}
          to={deviceDetailPath(id)}
          aria-label={translate('monitor.detail')}
          data-testid={`detail-${id}`}
          onClick={(e) => e.stopPropagation()}
        >
          <InfoOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={translate('monitor.track')}>
        <IconButton
          size="small"
          component={RouterLink}
          to={deviceTrackPath(id)}
          aria-label={translate('monitor.track')}
          data-testid={`track-${id}`}
          onClick={(e) => e.stopPropagation()}
        >
          <TimelineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
}

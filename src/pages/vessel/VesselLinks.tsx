import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import InsightsIcon from '@mui/icons-material/Insights';
import MapIcon from '@mui/icons-material/Map';
import BarChartIcon from '@mui/icons-material/BarChart';
import VideocamIcon from '@mui/icons-material/Videocam';
import PlaceIcon from '@mui/icons-material/Place';
import { Link } from 'react-router-dom';
import { useTranslate } from 'ra-core';

const LINKS = [
  { key: 'detail', path: '/device/deviceDataDetail', icon: InsightsIcon },
  { key: 'track', path: '/device/map', icon: MapIcon },
  { key: 'statistics', path: '/device/timeStatistics', icon: BarChartIcon },
  { key: 'camera', path: '/device/cameraInfo', icon: VideocamIcon },
  { key: 'location', path: '/device/deviceLocation', icon: PlaceIcon },
] as const;

/** Links from one vessel page to the others, with the vessel's ?id=. */
export function VesselLinks({ id, current }: { id: number; current: (typeof LINKS)[number]['key'] }) {
  const t = useTranslate();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="vessel-links">
      {LINKS.filter((l) => l.key !== current).map(({ key, path, icon: Icon }) => (
        <Button
          key={key}
          size="small"
          variant="outlined"
          startIcon={<Icon fontSize="small" />}
          component={Link}
          to={`${path}?id=${id}`}
          data-testid={`link-${key}`}
        >
          {t(`vessel.links.${key}`)}
        </Button>
      ))}
    </Stack>
  );
}

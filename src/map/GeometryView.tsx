import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useResourceContext, useTranslate } from 'ra-core';
import { formatPosition } from '../domain/position';
import { GeometryMap, type MapArea } from './GeometryMap';
import { centreOf, pointsOf, toNumber } from '../domain/geofences';

/**
 * A `geometry` field on the Show page: the record's area on a small read-only map, and a line that
 * says it in words (the centre and radius, or the number of points).
 */
export function GeometryView({ record, source }: { record: Record<string, unknown>; source: string }) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const shape = record.shape === 'circle' ? 'circle' : 'polygon';
  const areas = useMemo<MapArea[]>(
    () => [
      {
        id: String(record.id ?? ''),
        name: typeof record.name === 'string' ? record.name : undefined,
        kind: typeof record.kind === 'string' ? record.kind : undefined,
        shape,
        lat: toNumber(record.lat),
        lon: toNumber(record.lon),
        radiusM: toNumber(record.radiusM),
        points: pointsOf(record[source]),
      },
    ],
    [record, source, shape],
  );
  const area = areas[0]!;
  const centre = centreOf(area);
  const summary =
    shape === 'circle'
      ? centre
        ? translate(`resources.${resource}.draw.circleSummary`, {
            centre: formatPosition(centre[0], centre[1]),
            radius: (area.radiusM ?? 0).toLocaleString(),
          })
        : ''
      : translate(`resources.${resource}.draw.polygonSummary`, { smart_count: area.points?.length ?? 0 });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', rowGap: 0.75 }}>
      <Typography variant="body2" data-testid="geometry-summary">
        {summary}
      </Typography>
      <GeometryMap areas={areas} height={{ xs: 220, sm: 300 }} data-testid="geometry-view" />
    </Box>
  );
}

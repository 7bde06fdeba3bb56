import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useCreatePath, useListContext, useResourceContext, useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { GeometryMap, type MapArea } from '../../map/GeometryMap';
import { pointsOf, toNumber } from '../../domain/geofences';

/** The geofence list's map: every area of the page as listed (search, kind, page), a click opens its Show page. */
export function GeofencesListMap() {
  const translate = useTranslate();
  const resource = useResourceContext() ?? '';
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const { data } = useListContext();
  const areas = useMemo<MapArea[]>(
    () =>
      (data ?? []).map((r) => ({
        id: r.id,
        name: typeof r.name === 'string' ? r.name : undefined,
        kind: typeof r.kind === 'string' ? r.kind : undefined,
        shape: r.shape === 'circle' ? 'circle' : 'polygon',
        lat: toNumber(r.lat),
        lon: toNumber(r.lon),
        radiusM: toNumber(r.radiusM),
        points: pointsOf(r.points),
      })),
    [data],
  );
  return (
    <Box sx={{ px: { xs: 1, sm: 2 }, pt: 1, pb: 1.5 }}>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {translate(`resources.${resource}.draw.listMap`)}
      </Typography>
      <GeometryMap
        areas={areas}
        height={{ xs: 220, sm: 320 }}
        onSelect={(area) => navigate(createPath({ resource, id: area.id, type: 'show' }))}
        data-testid="geofence-list-map"
      />
    </Box>
  );
}

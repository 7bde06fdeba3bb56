import { useCallback, useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useResourceContext, useTranslate, useTranslateLabel } from 'ra-core';
import { useController, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { MAX_GEOFENCE_POINTS, type LatLon } from '../domain/geofences';
import { BaseMap } from './BaseMap';
import { MapFrame } from './GeometryMap';
import { fitAndFollow } from './fitView';
import { handleIcon, kindColour, pointOf, shapeBounds, shapeLayer } from './geofenceShapes';
import { centreOf, pointsOf, toNumber } from '../domain/geofences';

declare global {
  interface Window {
    /** Test hook: the drawing map of the open geofence form. */
    __geometryInput?: { map: L.Map };
  }
}

/**
 * The input of a `geometry` field (src/resources/types.ts): an area drawn on the base map, as the
 * form's `shape` says. A circle: a click sets the centre (lat, lon), the radius is typed (radiusM)
 * and drawn live, the centre's handle can be dragged. A polygon: each click adds a point to the
 * field's own source ([lat, lon] pairs), a point's handle can be dragged, the last removed, all
 * cleared. lat, lon and the radius stay number boxes, and "map centre" adds a point where the map
 * was moved to with the keyboard, so the area can be drawn without a mouse. The schema's errors of
 * these fields show under the map, once. Words: resources.<resource>.draw.* and .fields.*.
 */
export function GeometryInput({ source, label, disabled = false }: { source: string; label?: string; disabled?: boolean }) {
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const resource = useResourceContext() ?? '';
  const word = (key: string, options?: Record<string, unknown>) => translate(`resources.${resource}.draw.${key}`, options);
  const { getValues, setValue, trigger } = useFormContext();
  const { errors, isSubmitted } = useFormState({ name: [source, 'lat', 'lon', 'radiusM'] });
  const shape = useWatch({ name: 'shape' }) === 'circle' ? 'circle' : 'polygon';
  const kind = useWatch({ name: 'kind' }) as string | undefined;
  const rawPoints = useWatch({ name: source });
  const lat = useWatch({ name: 'lat' });
  const lon = useWatch({ name: 'lon' });
  const radiusM = useWatch({ name: 'radiusM' });
  const points = pointsOf(rawPoints);
  const centre = centreOf({ lat, lon });
  const names = shape === 'circle' ? ['lat', 'lon', 'radiusM'] : [source];
  const messages = [...new Set(names.map((n) => errors[n]?.message).filter((m): m is string => typeof m === 'string'))];

  /** Writes a value as the user's: dirty, touched, and checked again once it has been wrong or the form was sent. */
  const write = (name: string, value: unknown) =>
    setValue(name, value, { shouldDirty: true, shouldTouch: true, shouldValidate: Boolean(errors[name]) || isSubmitted });
  const fromMap = useRef(false);
  const setPoints = (next: LatLon[]) => {
    fromMap.current = true;
    write(source, next);
  };
  const setCentre = ([la, lo]: LatLon) => {
    fromMap.current = true;
    write('lat', la);
    write('lon', lo);
  };
  // The other shape's errors are stale once the shape changes.
  useEffect(() => {
    if (isSubmitted) void trigger(['lat', 'lon', 'radiusM', source]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape]);

  const [map, setMap] = useState<L.Map | null>(null);
  const onReady = useCallback((m: L.Map) => {
    setMap(m);
    window.__geometryInput = { map: m };
    return () => setMap(null);
  }, []);
  // A click on the map: the circle's centre, or the polygon's next point.
  const onClick = useRef<(p: LatLon) => void>(() => undefined);
  onClick.current = (p) => {
    if (disabled) return;
    if (shape === 'circle') setCentre(p);
    else {
      // Read now: two clicks may come before the form renders again.
      const current = pointsOf(getValues(source));
      if (current.length < MAX_GEOFENCE_POINTS) setPoints([...current, p]);
    }
  };
  useEffect(() => {
    if (!map) return undefined;
    const click = (e: L.LeafletMouseEvent) => onClick.current(pointOf(e.latlng));
    map.on('click', click);
    return () => {
      map.off('click', click);
    };
  }, [map]);

  // The area and its handles, drawn again on every change; framed when the change came from outside the map.
  const unfollow = useRef<(() => void) | null>(null);
  const pointsKey = JSON.stringify(points);
  const latest = useRef({ points, setPoints, setCentre });
  latest.current = { points, setPoints, setCentre };
  useEffect(() => {
    if (!map) return undefined;
    const group = L.featureGroup().addTo(map);
    const colour = kindColour(kind);
    const area = shapeLayer({ shape, lat, lon, radiusM, points, kind }, { interactive: false });
    area?.addTo(group);
    const handle = (at: LatLon, testId: string, title: string, moved: (p: LatLon) => void, live: (l: L.LatLng) => void) => {
      const marker = L.marker(at, { icon: handleIcon(colour, testId), draggable: !disabled, keyboard: true, title, alt: title });
      marker.on('drag', (e) => live((e as L.LeafletMouseEvent).latlng));
      marker.on('dragend', () => moved(pointOf(marker.getLatLng())));
      marker.addTo(group);
    };
    if (shape === 'circle' && centre) {
      handle(centre, 'geometry-centre-handle', word('centre'), latest.current.setCentre, (l) => (area as L.Circle | null)?.setLatLng(l));
    } else if (shape === 'polygon') {
      points.forEach((p, i) =>
        handle(
          p,
          `geometry-point-${i}`,
          word('point', { n: i + 1 }),
          (moved) => latest.current.setPoints(latest.current.points.map((q, j) => (j === i ? moved : q))),
          (l) => {
            const line = area as L.Polyline | null;
            if (!line) return;
            const latlngs = points.map((q, j) => (j === i ? l : L.latLng(q)));
            line.setLatLngs(latlngs);
          },
        ),
      );
    }
    if (!fromMap.current) {
      const bounds = shapeBounds({ shape, lat, lon, radiusM, points });
      if (bounds) {
        unfollow.current?.();
        unfollow.current = fitAndFollow(map, bounds, { padding: 32, maxZoom: 13 });
      }
    }
    fromMap.current = false;
    return () => {
      group.remove();
    };
    // pointsKey stands for points; the words change with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, shape, kind, lat, lon, radiusM, pointsKey, disabled]);
  useEffect(() => () => unfollow.current?.(), []);

  const mapCentre = (): LatLon | null => (map ? pointOf(map.getCenter()) : null);
  const labelText = String(translateLabel({ label, resource, source }));
  return (
    <Box
      component="div"
      role="group"
      aria-label={labelText}
      data-testid="geometry-input"
      sx={{ display: 'flex', flexDirection: 'column', rowGap: 1 }}
    >
      <Typography variant="caption" sx={{ color: messages.length ? 'error.main' : 'text.secondary' }}>
        {labelText}
        {' · '}
        {word(shape === 'circle' ? 'hintCircle' : 'hintPolygon')}
      </Typography>
      <MapFrame height={{ xs: 260, sm: 320 }} testId="geometry-map">
        <BaseMap onReady={onReady} style={{ minHeight: 0, cursor: disabled ? undefined : 'crosshair' }} />
      </MapFrame>
      <Stack direction="row" sx={{ flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        {shape === 'polygon' && (
          <Typography variant="body2" data-testid="geometry-count" sx={{ mr: 'auto' }}>
            {word('count', { smart_count: points.length, max: MAX_GEOFENCE_POINTS })}
          </Typography>
        )}
        <Button
          size="small"
          variant="outlined"
          data-testid="geometry-map-centre"
          disabled={disabled || (shape === 'polygon' && points.length >= MAX_GEOFENCE_POINTS)}
          onClick={() => {
            const p = mapCentre();
            if (p) onClick.current(p);
          }}
        >
          {word(shape === 'circle' ? 'setCentre' : 'addCentre')}
        </Button>
        {shape === 'polygon' && (
          <>
            <Button
              size="small"
              data-testid="geometry-undo"
              disabled={disabled || !points.length}
              onClick={() => setPoints(points.slice(0, -1))}
            >
              {word('undo')}
            </Button>
            <Button
              size="small"
              color="error"
              data-testid="geometry-clear"
              disabled={disabled || !points.length}
              onClick={() => setPoints([])}
            >
              {word('clear')}
            </Button>
          </>
        )}
      </Stack>
      {shape === 'circle' && (
        <Box
          sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' }, gap: 2, pt: 1 }}
        >
          <NumberBox name="lat" resource={resource} min={-90} max={90} disabled={disabled} />
          <NumberBox name="lon" resource={resource} min={-180} max={180} disabled={disabled} />
          <NumberBox name="radiusM" resource={resource} min={50} max={500_000} step={50} disabled={disabled} />
        </Box>
      )}
      {messages.length > 0 && (
        <FormHelperText error role="alert" data-testid="geometry-error" sx={{ mx: 0 }}>
          {messages.map((m) => translate(m, { _: m })).join(' · ')}
        </FormHelperText>
      )}
    </Box>
  );
}

/**
 * A number of the form typed by the user (a coordinate, the radius): what is typed is kept as text
 * while it is not a number yet ("-", "31."), and follows the form when the map writes the value.
 */
function NumberBox({
  name,
  resource,
  min,
  max,
  step = 'any',
  disabled,
}: {
  name: string;
  resource: string;
  min: number;
  max: number;
  step?: number | 'any';
  disabled: boolean;
}) {
  const translateLabel = useTranslateLabel();
  const { field, fieldState } = useController({ name });
  const shown = (v: unknown) => (toNumber(v) === null ? '' : String(toNumber(v)));
  const [text, setText] = useState(() => shown(field.value));
  useEffect(() => {
    if (toNumber(text) !== toNumber(field.value)) setText(shown(field.value));
    // Only a change of the form's value, not of the text typed, brings the value back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value]);
  return (
    <TextField
      id={name}
      name={name}
      type="number"
      size="small"
      label={translateLabel({ resource, source: name })}
      value={text}
      disabled={disabled}
      error={Boolean(fieldState.error)}
      inputRef={field.ref}
      onBlur={field.onBlur}
      onChange={(e) => {
        setText(e.target.value);
        field.onChange(e.target.value.trim() === '' ? null : (toNumber(e.target.value) ?? e.target.value));
      }}
      slotProps={{ htmlInput: { min, max, step, 'data-testid': `geometry-${name}` }, inputLabel: { required: true } }}
      fullWidth
    />
  );
}

import type { TrackColumns } from './simplify';
import type { TrackDevice } from './trackQueries';
import { roundSignal } from '../../../src/domain/signal';

export const TRACK_EXPORT_FORMATS = ['gpx', 'kml', 'csv'] as const;
export type TrackExportFormat = (typeof TRACK_EXPORT_FORMATS)[number];

export const TRACK_EXPORT_TYPES: Record<TrackExportFormat, string> = {
  gpx: 'application/gpx+xml; charset=utf-8',
  kml: 'application/vnd.google-earth.kml+xml; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

const xml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`);
const iso = (ms: number) => new Date(ms).toISOString();

/** Index ranges [start, end] between offline gaps: one GPX segment or KML line each. */
function segments(count: number, gaps: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (const g of gaps) {
    out.push([start, g - 1]);
    start = g;
  }
  if (count) out.push([start, count - 1]);
  return out;
}

function gpx(device: TrackDevice, c: TrackColumns, gaps: readonly number[]): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="fleet console" xmlns="http://www.topografix.com/GPX/1/1">
<trk><name>${xml(device.name)}</name>`,
  ];
  for (const [a, b] of segments(c.t.length, gaps)) {
    parts.push('<trkseg>');
    for (let i = a; i <= b; i += 1) {
      parts.push(`<trkpt lat="${c.lat[i]}" lon="${c.lon[i]}"><time>${iso(c.t[i]!)}</time></trkpt>`);
    }
    parts.push('</trkseg>');
  }
  parts.push('</trk>\n</gpx>\n');
  return parts.join('\n');
}

function kml(device: TrackDevice, c: TrackColumns, gaps: readonly number[]): string {
  const point = (name: string, i: number) =>
    `<Placemark><name>${name}</name><TimeStamp><when>${iso(c.t[i]!)}</when></TimeStamp><Point><coordinates>${c.lon[i]},${c.lat[i]}</coordinates></Point></Placemark>`;
  const lines = segments(c.t.length, gaps).map(([a, b]) => {
    const coords: string[] = [];
    for (let i = a; i <= b; i += 1) coords.push(`${c.lon[i]},${c.lat[i]}`);
    return `<LineString><tessellate>1</tessellate><coordinates>${coords.join(' ')}</coordinates></LineString>`;
  });
  const last = c.t.length - 1;
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
<Document><name>${xml(device.name)}</name>
<Placemark><name>${xml(device.name)}</name><MultiGeometry>
${lines.join('\n')}
</MultiGeometry></Placemark>
${c.t.length ? `${point('start', 0)}\n${point('end', last)}` : ''}
</Document>
</kml>
`;
}

const STATE_NAMES: Record<number, string> = { 1: 'online', 2: 'warn' };

/** The CSV: signal_level in whole percent, rounded as the console shows it (src/domain/signal.ts). */
function csv(c: TrackColumns, gaps: readonly number[]): string {
  const gapSet = new Set(gaps);
  const rows = ['time,latitude,longitude,speed_kn,heading,signal_level,state,after_gap'];
  for (let i = 0; i < c.t.length; i += 1) {
    rows.push(
      `${iso(c.t[i]!)},${c.lat[i]},${c.lon[i]},${Math.round(c.speed[i]! * 10) / 10},${Math.round(c.heading[i]! * 10) / 10},` +
        `${roundSignal(c.signal[i]!)},${STATE_NAMES[c.state[i]!] ?? c.state[i]},${gapSet.has(i) ? 1 : 0}`,
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** The whole track (every report, not simplified) in the asked format; gaps split the lines. */
export function exportTrack(format: TrackExportFormat, device: TrackDevice, c: TrackColumns, gaps: readonly number[]): string {
  if (format === 'gpx') return gpx(device, c, gaps);
  if (format === 'kml') return kml(device, c, gaps);
  return csv(c, gaps);
}

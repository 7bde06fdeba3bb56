import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { faultInfo } from '../../../src/domain/faultCodes';
import { Feature } from '../../../src/domain/features';
import { DATA_WINDOWS, DATA_WINDOW_NAMES, SERIES_POINTS } from '../../../src/domain/vesselSchemas';
import { languageOf, ok } from '../../http/envelope';
import { envelope, idQuery, tokenQuery } from '../../http/schemas';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { STATE_COLUMNS, STATE_JOINS } from '../monitoring/stateSql';
import { bandTotals, stateBands } from './stateBands';
import { ROLLUP_BAND_MIN_HOURS, rawBandPoints, rollupBandPoints } from './bandPointQueries';
import { currentVoyage } from './voyageQueries';
import { offlineMinutesOf, visibleVessel } from './vesselAccessQueries';

const tags = ['vessel'];
const METRICS = { signal: 'signal_level', snr: 'snr', azimuth: 'azimuth', elevation: 'elevation', skew: 'skew', speed: 'speed' } as const;
const METRIC_SQL = Object.entries(METRICS).map(([name, col]) =>
  `min(${col})::float8 AS "${name}Min", max(${col})::float8 AS "${name}Max", avg(${col})::float8 AS "${name}Avg"`).join(',\n  ');

/** deviceModule/vessel: the device detail page (all fields, latest report, charts over a data window). */
export async function detailRoutes(app: Api, { db }: ServerContext) {
  app.get('/vessel/getDetail', {
    schema: {
      tags, summary: 'A visible vessel: its device fields, latest report, active faults (with remedies) and current voyage',
      querystring: idQuery, response: envelope({ type: 'object', additionalProperties: true }),
    },
  }, async (request) => {
    const { id } = request.query;
    const device = await visibleVessel(db, request.user, id);
    const [latest] = await db.query<Record<string, unknown> & { faults: string[] }>(
      `SELECT ${STATE_COLUMNS} FROM devices d ${STATE_JOINS} WHERE d.id = $1`, [id]);
    const lang = languageOf(request);
    const faults = (latest?.reportedAt ? latest.faults : []).map((code) => describeFault(code, lang));
    return ok({ device, latest: latest?.reportedAt ? latest : null, status: latest?.status ?? 0, faults, currentVoyage: await currentVoyage(db, id) });
  });

  app.get('/vessel/getSeries', {
    schema: {
      tags,
      summary: `Charts of a visible vessel over a data window (${DATA_WINDOW_NAMES.join(', ')}): metrics bucketed to about ${SERIES_POINTS} points (min, max, avg), online/warn/offline bands, faults in the window. Feature iotData.`,
      querystring: { type: 'object', required: ['id'], properties: { ...tokenQuery, id: { type: 'integer' }, window: { type: 'string', enum: DATA_WINDOW_NAMES, default: '24h' } } },
      response: envelope({ type: 'object', additionalProperties: true }),
    },
  }, async (request) => {
    const { id, window } = request.query;
    await assertFeatureUnlocked(db, request.user, id, Feature.IotData);
    const to = Date.now();
    const spanMs = DATA_WINDOWS[window] * 3_600_000;
    const from = to - spanMs;
    const bucketSeconds = Math.ceil(spanMs / 1000 / SERIES_POINTS);
    const thresholdMinutes = await offlineMinutesOf(db, id);
    const [points, states, alarms] = await Promise.all([
      db.query(
        `SELECT (floor(extract(epoch FROM device_time) / $2) * $2 * 1000)::float8 AS t, count(*)::int AS n,
           ${METRIC_SQL}
           FROM device_reports WHERE device_id = $1 AND device_time > to_timestamp($3 / 1000.0) AND device_time <= to_timestamp($4 / 1000.0)
          GROUP BY 1 ORDER BY 1`,
        [id, bucketSeconds, from, to]),
      // The bands of the long windows (7 days) from the hourly rollups: the same bands, far fewer rows.
      (DATA_WINDOWS[window] >= ROLLUP_BAND_MIN_HOURS ? rollupBandPoints : rawBandPoints)(db, id, from, to, thresholdMinutes),
      db.query<{ code: string; raisedAt: string; lastSeenAt: string; clearedAt: string | null }>(
        `SELECT code, raised_at AS "raisedAt", last_seen_at AS "lastSeenAt", cleared_at AS "clearedAt" FROM alarms
          WHERE device_id = $1 AND raised_at <= to_timestamp($3 / 1000.0) AND (cleared_at IS NULL OR cleared_at >= to_timestamp($2 / 1000.0))
          ORDER BY raised_at DESC, id DESC LIMIT 200`,
        [id, from, to]),
    ]);
    const bands = stateBands(states, from, to, thresholdMinutes * 60_000);
    const lang = languageOf(request);
    return ok({
      window, from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucketSeconds, offlineMinutes: thresholdMinutes,
      points, bands, totals: bandTotals(bands),
      faults: alarms.map((a) => ({ ...a, ...describeFault(a.code, lang) })),
    });
  });
}

function describeFault(code: string, lang: 'zh' | 'en') {
  const info = faultInfo(code);
  return { code, severity: info?.severity ?? null, unit: info?.unit ?? null, meaning: info?.meaning[lang] ?? code, remedy: info?.remedy[lang] ?? null };
}

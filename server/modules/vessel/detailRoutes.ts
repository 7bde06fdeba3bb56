import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { alarmMeaning, faultInfo } from '../../../src/domain/faultCodes';
import { Feature } from '../../../src/domain/features';
import { DATA_WINDOWS, DATA_WINDOW_NAMES, SERIES_POINTS } from '../../../src/domain/vesselSchemas';
import { languageOf, ok } from '../../http/envelope';
import { envelope, idQuery, tokenQuery } from '../../http/schemas';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { bandTotals, stateBands } from './stateBands';
import { ROLLUP_BAND_MIN_HOURS, rawBandPoints, rollupBandPoints } from './bandPointQueries';
import { currentVoyage } from './voyageQueries';
import { clampToHistory, historyStartMs, offlineMinutesOf, visibleVessel } from './vesselAccessQueries';
import { latestState, seriesPoints, windowAlarms } from './detailQueries';
import { readPendingReport } from '../monitoring/pendingReportQueries';
import { rebootUnderWay } from '../commands/commandQueries';

const tags = ['vessel'];
/**
 * deviceModule/vessel: the device detail page (all fields, latest report, charts over a data window).
 * Levels 2 and 3 see the reports and alarms from the vessel's transfer to their enterprise on; its
 * voyages are vessel information and go with it (docs/requirements.md §6).
 */
export async function detailRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/vessel/getDetail',
    {
      schema: {
        tags,
        summary:
          'A visible vessel: its device fields, latest report, active faults (with remedies), current voyage, report awaiting activation and the reboot it is going through (rebooting: null when none)',
        querystring: idQuery,
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { id } = request.query;
      const device = await visibleVessel(db, request.user, id);
      const latest = await latestState(db, id, await historyStartMs(db, request.user, id));
      const lang = languageOf(request);
      const faults = (latest?.reportedAt ? latest.faults : []).map((code) => describeFault(code, lang));
      // Not activated: its newest report awaits activation and is shown apart (docs/api.md, "GET /vessel/getDetail").
      const pendingReport = device.activated ? null : await readPendingReport(db, id);
      return ok({
        device,
        latest: latest?.reportedAt ? latest : null,
        status: latest?.status ?? 0,
        faults,
        currentVoyage: await currentVoyage(db, id),
        pendingReport,
        // A reboot under way: the vessel is down whatever its last report says (docs/api.md, "command").
        rebooting: await rebootUnderWay(db, id),
      });
    },
  );

  app.get(
    '/vessel/getSeries',
    {
      schema: {
        tags,
        summary: `Charts of a visible vessel over a data window (${DATA_WINDOW_NAMES.join(', ')}): metrics bucketed to about ${SERIES_POINTS} points (min, max, avg), online/warn/offline bands, faults in the window. Feature iotData.`,
        querystring: {
          type: 'object',
          required: ['id'],
          properties: { ...tokenQuery, id: { type: 'integer' }, window: { type: 'string', enum: DATA_WINDOW_NAMES, default: '24h' } },
        },
        response: envelope({ type: 'object', additionalProperties: true }),
      },
    },
    async (request) => {
      const { id, window } = request.query;
      await assertFeatureUnlocked(db, request.user, id, Feature.IotData);
      const to = Date.now();
      const spanMs = DATA_WINDOWS[window] * 3_600_000;
      const from = to - spanMs;
      const bucketSeconds = Math.ceil(spanMs / 1000 / SERIES_POINTS);
      const thresholdMinutes = await offlineMinutesOf(db, id);
      const since = await historyStartMs(db, request.user, id);
      // The bands of the long windows (7 days) from the hourly rollups: the same bands, far fewer rows. A
      // transfer within reach of the window cuts an hour, so then the bands come from the reports after it.
      const cutInWindow = since !== null && since > from - thresholdMinutes * 60_000 - 3_600_000;
      const [points, states, alarms] = await Promise.all([
        seriesPoints(db, id, bucketSeconds, clampToHistory(from, since), to),
        cutInWindow
          ? rawBandPoints(db, id, from, to, thresholdMinutes, since)
          : (DATA_WINDOWS[window] >= ROLLUP_BAND_MIN_HOURS ? rollupBandPoints : rawBandPoints)(db, id, from, to, thresholdMinutes),
        windowAlarms(db, id, from, to, since),
      ]);
      const bands = stateBands(states, from, to, thresholdMinutes * 60_000);
      const lang = languageOf(request);
      return ok({
        window,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        bucketSeconds,
        offlineMinutes: thresholdMinutes,
        points,
        bands,
        totals: bandTotals(bands),
        faults: alarms.map((a) => ({ ...a, ...describeFault(a.code, lang, a.detail) })),
      });
    },
  );
}

function describeFault(code: string, lang: 'zh' | 'en', detail?: string | null) {
  const info = faultInfo(code);
  return {
    code,
    severity: info?.severity ?? null,
    unit: info?.unit ?? null,
    meaning: alarmMeaning(code, detail, lang),
    remedy: info?.remedy[lang] ?? null,
  };
}

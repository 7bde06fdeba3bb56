import { describe, expect, it } from 'vitest';
import { stateBands, bandTotals } from '../../server/modules/vessel/stateBands';
import { statisticsWindow } from '../../server/modules/vessel/statisticsQueries';
import { cameraSchema, streamKindOf, voyageSchema, voyageStatusOf } from '../../src/domain/vesselSchemas';
import { validate } from '../../src/domain/validate';
import { isoToLocalInput, localInputToIso } from '../../src/format/zonedInput';

const MIN = 60_000;

describe('state bands', () => {
  it('covers each report up to the next or its threshold, offline elsewhere, warn apart', () => {
    const points = [0, 5, 10, 40, 45].map((m, i) => ({ ms: m * MIN, warn: i === 4 }));
    const bands = stateBands(points, -10 * MIN, 60 * MIN, 10 * MIN);
    expect(bands.map((b) => [b.state, b.from / MIN, b.to / MIN])).toEqual([
      ['offline', -10, 0],
      ['online', 0, 20],
      ['offline', 20, 40],
      ['online', 40, 45],
      ['warn', 45, 55],
      ['offline', 55, 60],
    ]);
    expect(bandTotals(bands)).toEqual({ online: 25 * 60, warn: 10 * 60, offline: 35 * 60 });
  });

  it('clips a report from before the window and is all offline without reports', () => {
    expect(stateBands([{ ms: -5 * MIN, warn: false }], 0, 30 * MIN, 10 * MIN).map((b) => [b.state, b.to / MIN])).toEqual([
      ['online', 5],
      ['offline', 30],
    ]);
    expect(stateBands([], 0, MIN, MIN)).toEqual([{ from: 0, to: MIN, state: 'offline' }]);
  });
});

describe('statistics window', () => {
  it('starts at local midnight of the first day at the offset', () => {
    const now = Date.parse('2026-03-10T20:00:00Z');
    const east = statisticsWindow(5, 8, now);
    expect(new Date(east.fromMs).toISOString()).toBe('2026-03-06T16:00:00.000Z');
    const west = statisticsWindow(5, -5, now);
    expect(new Date(west.fromMs).toISOString()).toBe('2026-03-06T05:00:00.000Z');
  });
});

describe('voyage and camera rules', () => {
  const voyage = {
    deviceId: 1,
    voyageNo: 'V1',
    destination: 'Busan',
    agent: 'A',
    etd: '2026-01-02T00:00:00Z',
    eta: '2026-01-01T23:59:00Z',
  };
  it('refuses a day the calendar does not have instead of rolling it over, whatever the zone', () => {
    const bad = validate(voyageSchema, { ...voyage, etd: '2026-02-30T10:00:00Z', eta: '2026-03-05T10:00:00+08:00' });
    expect(bad.ok ? [] : bad.errors).toEqual([{ field: 'etd', message: 'validation.dateTime' }]);
    // Past local midnight in +08:00 is still the day written.
    expect(validate(voyageSchema, { ...voyage, etd: '2026-03-01T01:00:00+08:00', eta: '2026-03-05T10:00:00Z' }).ok).toBe(true);
  });

  it('refuses an eta before the etd and allows them equal', () => {
    const bad = validate(voyageSchema, voyage);
    expect(bad.ok ? [] : bad.errors).toEqual([{ field: 'eta', message: 'validation.etaBeforeEtd' }]);
    expect(validate(voyageSchema, { ...voyage, eta: voyage.etd }).ok).toBe(true);
    expect(validate(voyageSchema, { ...voyage, eta: '2026-01-02T08:00+08:00' }).ok).toBe(true);
  });
  it('names the status of a voyage', () => {
    const now = Date.parse('2026-01-05T00:00:00Z');
    expect(voyageStatusOf('2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z', now)).toBe('arrived');
    expect(voyageStatusOf('2026-01-01T00:00:00Z', '2026-01-06T00:00:00Z', now)).toBe('underway');
    expect(voyageStatusOf('2026-01-06T00:00:00Z', '2026-01-07T00:00:00Z', now)).toBe('planned');
  });
  it('accepts only http(s) stream links and tells how to open them', () => {
    const ok = (link: string) => validate(cameraSchema, { deviceId: 1, name: 'c', link }).ok;
    expect(ok('https://a.example/live.m3u8')).toBe(true);
    expect(ok('rtsp://a.example/live')).toBe(false);
    expect(ok('https:/a.example')).toBe(false);
    expect(streamKindOf('https://a.example/live/index.M3U8?token=1')).toBe('hls');
    expect(streamKindOf('http://10.0.0.1/cgi-bin/mjpg/video.cgi')).toBe('mjpeg');
    expect(streamKindOf('https://nvr.example/view?cam=1')).toBe('external');
  });
});

describe('wall-clock inputs in the selected zone', () => {
  it('round-trips an instant through a datetime-local value', () => {
    expect(localInputToIso('2030-05-20T08:00', 8)).toBe('2030-05-20T00:00:00.000Z');
    expect(isoToLocalInput('2030-05-20T00:00:00.000Z', -5)).toBe('2030-05-19T19:00');
    expect(localInputToIso('', 8)).toBe('');
  });
});

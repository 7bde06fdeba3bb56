import { REBOOT_BACK_WITHIN_MIN, isRebooting, type DeviceCommand } from './commands';

/** A translate function: react-admin's in the console, translateDomain's on the server (exports). */
type Translate = (key: string, options?: Record<string, unknown>) => string;
type Command = Pick<DeviceCommand, 'kind' | 'state' | 'params' | 'result' | 'message' | 'ackedAt' | 'doneAt'>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Compact key: value text of what the console cannot name (a real terminal's own fields). */
const compact = (value: Record<string, unknown>) =>
  Object.entries(value)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(', ');

/** A duration in seconds as "3 h 12 min", "12 min" or "40 s". */
export function durationText(t: Translate, seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (h > 0) return t('commands.outcome.hours', { h, m });
  if (m > 0) return t('commands.outcome.minutes', { m });
  return t('commands.outcome.seconds', { s: Math.round(seconds) });
}

/** What a terminal answered for diagnostics, one phrase per value it gave. */
function diagnosticsText(t: Translate, r: Record<string, unknown>): string {
  const parts: string[] = [];
  const uptime = num(r.uptimeS);
  if (uptime !== null) parts.push(t('commands.outcome.uptime', { time: durationText(t, uptime) }));
  const satellite = str(r.satellite);
  if (satellite)
    parts.push(
      t('commands.outcome.pointing', {
        satellite,
        mode: t(r.pointing === 'manual' ? 'commands.outcome.pointingManual' : 'commands.outcome.pointingAuto'),
        azimuth: num(r.azimuth) ?? '-',
        elevation: num(r.elevation) ?? '-',
      }),
    );
  if (typeof r.modemLock === 'boolean') parts.push(t(r.modemLock ? 'commands.outcome.locked' : 'commands.outcome.notLocked'));
  if (Array.isArray(r.faults))
    parts.push(r.faults.length ? t('commands.outcome.faults', { codes: r.faults.join(', ') }) : t('commands.outcome.noFaults'));
  const every = num(r.reportIntervalS);
  if (every !== null) parts.push(t('commands.outcome.everySeconds', { seconds: every }));
  const temperature = num(r.temperatureC);
  if (temperature !== null) parts.push(t('commands.outcome.temperature', { value: temperature }));
  return parts.join(' · ');
}

/** Why a terminal refused, in the reader's language when it named the reason (data.reason), else its own words. */
function refusalText(t: Translate, c: Command, r: Record<string, unknown>): string {
  switch (r.reason) {
    case 'notBack':
      return t('commands.outcome.notBack', { minutes: REBOOT_BACK_WITHIN_MIN });
    case 'unknownSatellite':
      return t('commands.outcome.unknownSatellite', { satellite: str(r.satellite) ?? '' });
    case 'belowHorizon':
      return t('commands.outcome.belowHorizon', { satellite: str(r.satellite) ?? '', elevation: num(r.elevation) ?? '-' });
    case 'intervalOutOfRange':
      return t('commands.outcome.intervalOutOfRange', { seconds: r.seconds ?? '' });
    case 'unsupported':
      return t('commands.outcome.unsupported');
    default:
      return c.message ? t('commands.outcome.deviceSaid', { message: c.message }) : t('commands.outcome.refused');
  }
}

/**
 * What came of a command, as a sentence in the reader's language (docs/console.md, "Commands"):
 * waiting, delivered, rebooting and back, where the antenna points, the new interval, the
 * diagnostics, the firmware versions, or why the terminal refused. Fields a real terminal adds
 * that the console cannot name are listed after as key: value.
 */
export function commandOutcome(t: Translate, c: Command): string {
  const r = c.result ?? {};
  switch (c.state) {
    case 'queued':
      return t('commands.outcome.waiting');
    case 'sent':
      return t('commands.outcome.delivered');
    case 'expired':
      return t('commands.outcome.expired');
    case 'cancelled':
      return '';
    case 'failed':
      return refusalText(t, c, r);
    default:
      break;
  }
  if (isRebooting(c)) {
    const seconds = num(r.downForS);
    return seconds === null ? t('commands.outcome.rebootingNoTime') : t('commands.outcome.rebooting', { seconds });
  }
  if (c.kind === 'reboot' && c.state === 'done') {
    const back = c.ackedAt && c.doneAt ? Math.max(0, Math.round((Date.parse(c.doneAt) - Date.parse(c.ackedAt)) / 1000)) : null;
    return back === null ? t('commands.state.done') : t('commands.outcome.backOnline', { seconds: back });
  }
  switch (c.kind) {
    case 'repoint':
      if (str(r.satellite))
        return t('commands.outcome.pointed', {
          satellite: r.satellite,
          azimuth: num(r.azimuth) ?? '-',
          elevation: num(r.elevation) ?? '-',
        });
      break;
    case 'setInterval':
      if (num(r.seconds) !== null) return t('commands.outcome.interval', { seconds: r.seconds });
      break;
    case 'diagnostics': {
      const text = diagnosticsText(t, r);
      if (text) return text;
      break;
    }
    case 'firmwareCheck':
      if (str(r.adu) || str(r.bdu)) return t('commands.outcome.firmware', { adu: str(r.adu) ?? '-', bdu: str(r.bdu) ?? '-' });
      break;
    default:
      break;
  }
  return [c.message, compact(r)].filter(Boolean).join(' · ');
}

/** A command's parameters in words: "satellite Intelsat 39", "30 s"; nothing for the kinds without any. */
export function commandParamsText(t: Translate, c: Pick<DeviceCommand, 'kind' | 'params'>): string {
  const p = c.params ?? {};
  if (c.kind === 'repoint' && str(p.satellite)) return t('commands.paramsText.satellite', { satellite: p.satellite });
  if (c.kind === 'setInterval' && p.seconds !== undefined) return t('commands.paramsText.seconds', { seconds: p.seconds });
  return Object.keys(p).length ? compact(p) : '';
}

/** The state's name as shown: a reboot under way reads "Rebooting". */
export const commandStateKey = (c: Pick<DeviceCommand, 'kind' | 'state'>): string =>
  isRebooting(c) ? 'commands.state.rebooting' : `commands.state.${c.state}`;

import * as yup from 'yup';

/**
 * A vessel's WAN links, as a report carries them (docs/api.md, "links"): the on-board router
 * (a vBox) names each link it has, its state and whether it carries the traffic now. The links are
 * listed in the router's order of preference: the first is the vessel's primary link, the others
 * its backups (docs/architecture.md, "Links").
 */
export const LINK_KINDS = ['geo', 'leo', 'cellular', 'microwave', 'wifi'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LINK_STATES = ['up', 'standby', 'down'] as const;
export type LinkState = (typeof LINK_STATES)[number];
/**
 * Why the traffic moved from one link to another (a failover), read from the link it left: it went
 * down (lost its lock; a LEO dish obstructed), or it was still up or on standby (back to a more
 * preferred link: restored; else switched by hand).
 */
export const FAILOVER_REASONS = ['lockLost', 'obstruction', 'restored', 'manual'] as const;
export type FailoverReason = (typeof FAILOVER_REASONS)[number];
/** Links one report may carry at most. */
export const MAX_LINKS = 6;
/** A link's id: the router's name for its WAN port (letters, digits and . _ : -). */
export const LINK_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,32}$/;
/** A LEO link obstructed this much (percent) when it went down lost its link to the obstruction. */
export const OBSTRUCTION_FAILOVER_PCT = 20;
/**
 * Between two reports of a vessel at most this much time is counted to the links' states (the
 * first report's); a longer silence is the vessel offline, counted to no link.
 */
export const LINK_GAP_MAX_MS = 10 * 60_000;

/** The vessel page's link timeline windows, in hours. */
export const LINK_WINDOWS = { '24h': 24, '7d': 24 * 7 } as const;
export type LinkWindow = keyof typeof LINK_WINDOWS;
export const LINK_WINDOW_NAMES = Object.keys(LINK_WINDOWS) as LinkWindow[];

/** One link of a report, as checked (unknown fields dropped; absent figures stay absent). */
export interface ReportLink {
  id: string;
  kind: LinkKind;
  state: LinkState;
  active: boolean;
  latencyMs?: number | null;
  downMbps?: number | null;
  upMbps?: number | null;
  signal?: number | null;
  snr?: number | null;
  obstructionPct?: number | null;
}

/** A link's figures: absent or null, else a number in [min, max] (the message key otherwise). */
const LINK_FIGURES = [
  ['latencyMs', 0, 60_000, 'validation.linkLatency'],
  ['downMbps', 0, 100_000, 'validation.linkThroughput'],
  ['upMbps', 0, 100_000, 'validation.linkThroughput'],
  ['signal', 0, 100, 'validation.signalLevel'],
  ['snr', -20, 50, 'validation.snr'],
  ['obstructionPct', 0, 100, 'validation.linkObstruction'],
] as const;

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => list.includes(value as T);

/**
 * Checks a report's `links` and answers them cleaned, or every bad field once (path relative to
 * `links`: `[0].kind`, or '' for the list as a whole) with its message key. Written by hand, not
 * with yup: the ingest checks thousands of reports a second, and yup took about 30 µs a link
 * (docs/architecture.md, "Links"). Absent or null: no links.
 */
export function checkLinks(value: unknown): { links?: ReportLink[]; errors: { field: string; message: string }[] } {
  if (value == null) return { errors: [] };
  if (!Array.isArray(value)) return { errors: [{ field: '', message: 'validation.links' }] };
  // A hostile list is refused whole, before its entries are looked at.
  if (value.length > MAX_LINKS) return { errors: [{ field: '', message: 'validation.linksTooMany' }] };
  const errors: { field: string; message: string }[] = [];
  const links: ReportLink[] = [];
  value.forEach((raw: unknown, i) => {
    const fail = (name: string, message: string) => errors.push({ field: name ? `[${i}].${name}` : `[${i}]`, message });
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('', 'validation.linkEntry');
    const entry = raw as Record<string, unknown>;
    const text = (name: string, valid: (v: unknown) => boolean, message: string) => {
      const v = entry[name];
      if (v == null) fail(name, 'validation.required');
      else if (typeof v !== 'string' || !valid(v)) fail(name, message);
    };
    text('id', (v) => LINK_ID_PATTERN.test(v as string), 'validation.linkId');
    text('kind', (v) => isOneOf(LINK_KINDS, v), 'validation.linkKind');
    text('state', (v) => isOneOf(LINK_STATES, v), 'validation.linkState');
    if (entry.active == null) fail('active', 'validation.required');
    else if (typeof entry.active !== 'boolean') fail('active', 'validation.boolean');
    const link = { id: entry.id, kind: entry.kind, state: entry.state, active: entry.active } as ReportLink;
    for (const [name, min, max, message] of LINK_FIGURES) {
      const v = entry[name];
      if (v === undefined) continue;
      if (v !== null && (typeof v !== 'number' || !(v >= min && v <= max))) fail(name, message);
      else if (name === 'obstructionPct' && v !== null && entry.kind !== 'leo') fail(name, 'validation.linkObstructionLeo');
      else link[name] = v;
    }
    links.push(link);
  });
  if (new Set(value.map((l) => (l as { id?: unknown } | null)?.id)).size !== value.length)
    errors.push({ field: '', message: 'validation.linkDuplicate' });
  const active = links.filter((l) => l.active === true);
  // (An unknown state is the state's own error.)
  if (active.length > 1 || active.some((l) => l.state === 'standby' || l.state === 'down'))
    errors.push({ field: '', message: 'validation.linkActive' });
  return errors.length ? { errors } : { links, errors };
}

/**
 * The report's `links` in its yup schema (src/domain/reportSchema.ts), checked by checkLinks: valid
 * links are cleaned as they are read, and the test finds the errors of the others.
 */
export const linksSchema = yup
  .mixed<ReportLink[]>()
  .transform((value: unknown) => {
    const { links, errors } = checkLinks(value);
    return errors.length ? value : links;
  })
  .test('links', 'validation.links', function (value: unknown) {
    const { errors } = checkLinks(value);
    if (!errors.length) return true;
    return new yup.ValidationError(errors.map((e) => this.createError({ path: `${this.path}${e.field}`, message: e.message })));
  })
  .optional();

/** Why the traffic left `from` (its state in the report that moved it) for a link at `toPriority` (0: the primary). */
export function failoverReason(
  from: { kind: string; state: string; obstructionPct?: number | null; priority: number } | undefined,
  toPriority: number,
): FailoverReason {
  if (!from) return 'restored';
  // Still up, or gone to standby behind the link taking over: nothing was lost.
  if (from.state !== 'down') return toPriority < from.priority ? 'restored' : 'manual';
  if (from.kind === 'leo' && (from.obstructionPct ?? 0) >= OBSTRUCTION_FAILOVER_PCT) return 'obstruction';
  return 'lockLost';
}

/** A link behind the router's first one (priority 0: the primary link). */
export const isBackupLink = (link: { priority: number }) => link.priority > 0;

/**
 * Whether a vessel's traffic goes over a backup link now (device_state.on_backup, migration 037):
 * null for a vessel without links.
 */
export const onBackupNow = (links: readonly { active: boolean; priority: number }[]) =>
  links.length ? links.some((l) => l.active && isBackupLink(l)) : null;

// What GET /vessel/getLinks answers (docs/api.md); times are ISO strings on the wire, epoch ms or Dates on the server.

/** A vessel's WAN link now (GET /vessel/getLinks, `links`); priority 0 is the primary link. */
export interface CurrentLink<T = string> {
  linkId: string;
  kind: LinkKind;
  priority: number;
  state: LinkState;
  active: boolean;
  latencyMs: number | null;
  downMbps: number | null;
  upMbps: number | null;
  signal: number | null;
  snr: number | null;
  obstructionPct: number | null;
  reportedAt: T;
  since: T;
}
export interface LinkSegment<T = string> {
  from: T;
  to: T;
  state: LinkState;
  /** Carrying the vessel's traffic. */
  active: boolean;
}
/** One link's states over the window; priority null: the link is no longer reported. */
export interface LinkLane<T = string> {
  linkId: string;
  kind: LinkKind;
  priority: number | null;
  segments: LinkSegment<T>[];
}
export interface Failover<T = string> {
  at: T;
  fromLink: string | null;
  toLink: string | null;
  reason: FailoverReason;
}
/** A link's seconds in each state over the window's hours, and its average figures. */
export interface LinkTime {
  linkId: string;
  kind: LinkKind;
  upSeconds: number;
  standbySeconds: number;
  downSeconds: number;
  activeSeconds: number;
  samples: number;
  latencyMs: number | null;
  signal: number | null;
  snr: number | null;
  obstructionPct: number | null;
}
export interface VesselLinks {
  window: LinkWindow;
  from: string;
  to: string;
  links: CurrentLink[];
  lanes: LinkLane[];
  failovers: Failover[];
  availability: LinkTime[];
}

/**
 * A report's links as two bitmasks (bit i: LINK_KINDS[i]), kept with the report in its history
 * (device_reports.link_kinds and links_up, migration 038) for the coverage map's link layers
 * (docs/architecture.md, "Coverage"): the kinds it has, and those with a link up or on standby
 * (one that could carry the traffic there). Null without links.
 */
export function linkKindBits(links: readonly { kind: string; state: string }[] | undefined): { kinds: number; up: number } | null {
  if (!links?.length) return null;
  let kinds = 0;
  let up = 0;
  for (const l of links) {
    const bit = 1 << LINK_KINDS.indexOf(l.kind as LinkKind);
    if (bit < 1) continue;
    kinds |= bit;
    if (l.state !== 'down') up |= bit;
  }
  return { kinds, up };
}

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

const optionalNum = (min: number, max: number, key: string) =>
  yup.number().strict().typeError(key).min(min, key).max(max, key).optional().nullable();

export const linkSchema = yup.object({
  id: yup.string().strict().typeError('validation.linkId').required('validation.required').matches(LINK_ID_PATTERN, 'validation.linkId'),
  kind: yup
    .string()
    .strict()
    .typeError('validation.linkKind')
    .required('validation.required')
    .oneOf([...LINK_KINDS], 'validation.linkKind'),
  state: yup
    .string()
    .strict()
    .typeError('validation.linkState')
    .required('validation.required')
    .oneOf([...LINK_STATES], 'validation.linkState'),
  active: yup.boolean().strict().typeError('validation.boolean').required('validation.required'),
  latencyMs: optionalNum(0, 60_000, 'validation.linkLatency'),
  downMbps: optionalNum(0, 100_000, 'validation.linkThroughput'),
  upMbps: optionalNum(0, 100_000, 'validation.linkThroughput'),
  signal: optionalNum(0, 100, 'validation.signalLevel'),
  snr: optionalNum(-20, 50, 'validation.snr'),
  obstructionPct: optionalNum(0, 100, 'validation.linkObstruction').test(
    'leo-only',
    'validation.linkObstructionLeo',
    (value, context) => value == null || (context.parent as { kind?: unknown }).kind === 'leo',
  ),
});

export type ReportLink = yup.InferType<typeof linkSchema>;

/** The report's `links`: optional; each id once; at most one link carries the traffic, and it is up. */
export const linksSchema = yup
  .array(linkSchema)
  .typeError('validation.links')
  .max(MAX_LINKS, 'validation.linksTooMany')
  .test('unique-ids', 'validation.linkDuplicate', (links) => !links || new Set(links.map((l) => l?.id)).size === links.length)
  .test('one-active', 'validation.linkActive', (links) => {
    const active = (links ?? []).filter((l) => l?.active);
    // (An unknown state is the state's own error.)
    return active.length <= 1 && active.every((l) => l.state !== 'standby' && l.state !== 'down');
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

-- A vessel's WAN links (docs/architecture.md, "Links"; src/domain/links.ts), kept compactly by the
-- ingest from the reports that carry `links` (nothing is written for a report without them):
--   device_state.links: each link's current state;
--   link_changes: a row each time a link's state or its carrying the traffic changes (the timeline);
--   link_failovers: each move of the traffic from one link to another, with its reason;
--   link_hourly: per vessel, link and hour, the seconds spent up / standby / down / carrying the
--     traffic, and the sums of the link's figures over that hour's reports (avg = sum / count).
-- The time between two reports (at most 10 minutes: a longer silence is the vessel offline) is
-- counted to the states of the earlier report. Reports older than the vessel's latest are kept in
-- the history but do not change its links.
-- The current links ride on the vessel's latest state, written by the same upsert (no row of their
-- own to write per report): a JSON array, in the router's order, of { linkId, kind, priority, state,
-- active, latencyMs, downMbps, upMbps, signal, snr, obstructionPct, reportedAt, since (epoch ms),
-- acc }. `acc` is the link's hour in progress ({ hourStart, up, standby, down, active, samples, and
-- [count, sum] of latency, signal, snr, obstruction }): it goes to link_hourly when the hour ends
-- (at the next report after it), so the hour rows are written once an hour, not once a report;
-- readers add the hours in progress to the rows.
ALTER TABLE device_state ADD COLUMN links jsonb;

CREATE TABLE link_changes (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  link_id text NOT NULL,
  kind text NOT NULL,
  state text NOT NULL,
  active boolean NOT NULL,
  PRIMARY KEY (device_id, at, link_id)
);

CREATE TABLE link_failovers (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  from_link text,
  to_link text,
  reason text NOT NULL,
  PRIMARY KEY (device_id, at)
);
CREATE INDEX link_failovers_at_idx ON link_failovers (at);

CREATE TABLE link_hourly (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  hour_start timestamptz NOT NULL,
  link_id text NOT NULL,
  kind text NOT NULL,
  up_s real NOT NULL DEFAULT 0,
  standby_s real NOT NULL DEFAULT 0,
  down_s real NOT NULL DEFAULT 0,
  active_s real NOT NULL DEFAULT 0,
  samples integer NOT NULL DEFAULT 0,
  latency_n integer NOT NULL DEFAULT 0, latency_sum float8 NOT NULL DEFAULT 0,
  signal_n integer NOT NULL DEFAULT 0, signal_sum float8 NOT NULL DEFAULT 0,
  snr_n integer NOT NULL DEFAULT 0, snr_sum float8 NOT NULL DEFAULT 0,
  obstruction_n integer NOT NULL DEFAULT 0, obstruction_sum float8 NOT NULL DEFAULT 0,
  PRIMARY KEY (device_id, hour_start, link_id)
);
CREATE INDEX link_hourly_hour_idx ON link_hourly (hour_start);

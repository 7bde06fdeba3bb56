-- The fleet's coverage map (docs/architecture.md, "Coverage"; src/domain/coverage.ts): per H3 cell,
-- satellite and UTC day, how many reports came from there, how many were locked, and a histogram of
-- their SNR (h0...h15: 2 dB buckets from -4 dB, the ends open), from which the median is read; a
-- column per bucket so that a window's rows are summed by plain sums. Kept at three
-- resolutions (2, 3 and 4), so a map at any zoom reads the rows of one resolution only.
-- Built by the leader (server/modules/coverage/coverageQueries.ts) from the reports in the order
-- they were received (coverage_state.after_*: the last one counted), so a late report is counted in
-- its own day without a rebuild, and the ingest pays nothing. lat/lon: the cell's centre, for a
-- map's bounds.
CREATE TABLE coverage_daily (
  res smallint NOT NULL,
  day date NOT NULL,
  satellite text NOT NULL,
  cell bigint NOT NULL,
  lat real NOT NULL,
  lon real NOT NULL,
  samples integer NOT NULL,
  locked integer NOT NULL,
  h0 integer NOT NULL DEFAULT 0,
  h1 integer NOT NULL DEFAULT 0,
  h2 integer NOT NULL DEFAULT 0,
  h3 integer NOT NULL DEFAULT 0,
  h4 integer NOT NULL DEFAULT 0,
  h5 integer NOT NULL DEFAULT 0,
  h6 integer NOT NULL DEFAULT 0,
  h7 integer NOT NULL DEFAULT 0,
  h8 integer NOT NULL DEFAULT 0,
  h9 integer NOT NULL DEFAULT 0,
  h10 integer NOT NULL DEFAULT 0,
  h11 integer NOT NULL DEFAULT 0,
  h12 integer NOT NULL DEFAULT 0,
  h13 integer NOT NULL DEFAULT 0,
  h14 integer NOT NULL DEFAULT 0,
  h15 integer NOT NULL DEFAULT 0,
  PRIMARY KEY (res, day, satellite, cell)
);

CREATE TABLE coverage_state (
  id smallint PRIMARY KEY CHECK (id = 1),
  after_received timestamptz,
  after_device integer,
  after_time timestamptz
);
INSERT INTO coverage_state (id) VALUES (1);

-- The fleet's traffic (docs/architecture.md, "Degradation ahead"; src/domain/trafficFlow.ts): per
-- H3 cell at resolution 4, heading sector (8 of 45 degrees) and week (its Monday, UTC), how many
-- reports of vessels under way came from there and their headings summed as unit vectors (east,
-- north). The prediction projects a vessel's path along the lanes they draw. Counted by the leader
-- with the coverage, from the same reports in the same transaction
-- (server/modules/vessel/trafficQueries.ts), so the ingest pays nothing; the reports counted into
-- the coverage before this table existed are not counted again (the path goes straight on where
-- the traffic says nothing).
CREATE TABLE traffic_flow (
  week date NOT NULL,
  cell bigint NOT NULL,
  sector smallint NOT NULL,
  samples integer NOT NULL,
  east double precision NOT NULL,
  north double precision NOT NULL,
  PRIMARY KEY (week, cell, sector)
);

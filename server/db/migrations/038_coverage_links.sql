-- The coverage map's link layers (docs/architecture.md, "Coverage"; src/domain/coverage.ts,
-- COVERAGE_LINK_KINDS): where a LEO terminal, 4G/5G, microwave or shore Wi-Fi could carry a
-- vessel's traffic. A report's links are kept in its history as two bitmasks (bit i: the link kind
-- LINK_KINDS[i] of src/domain/links.ts): the kinds it has, and those with a link up or on standby;
-- null for a report without links (4 bytes a report, not the links themselves). The coverage rows
-- get a `kind`: 'geo' for the satellites' rows (as before), else a link kind, whose rows have no
-- satellite ('') and count as "locked" the reports with that link available.
ALTER TABLE device_reports ADD COLUMN link_kinds smallint, ADD COLUMN links_up smallint;

ALTER TABLE coverage_daily ADD COLUMN kind text NOT NULL DEFAULT 'geo';
ALTER TABLE coverage_daily DROP CONSTRAINT coverage_daily_pkey, ADD PRIMARY KEY (res, day, kind, satellite, cell);
ALTER TABLE coverage_weekly ADD COLUMN kind text NOT NULL DEFAULT 'geo';
ALTER TABLE coverage_weekly DROP CONSTRAINT coverage_weekly_pkey, ADD PRIMARY KEY (res, day, kind, satellite, cell);

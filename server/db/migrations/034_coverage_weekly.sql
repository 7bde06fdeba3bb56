-- The coverage cells by week as well as by day (docs/architecture.md, "Coverage"): a map over 90
-- days reads its whole weeks (Monday to Sunday, UTC) from here and only the days either side from
-- coverage_daily, about 5 times fewer rows. `day` is the week's Monday. Written with the day rows,
-- by the same upsert's caller (server/modules/vessel/coverageQueries.ts, addCoverageRows).
CREATE TABLE coverage_weekly (LIKE coverage_daily INCLUDING ALL);

INSERT INTO coverage_weekly (res, day, satellite, cell, lat, lon, samples, locked, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15)
SELECT res, date_trunc('week', day)::date, satellite, cell, min(lat), min(lon), sum(samples), sum(locked),
       sum(h0), sum(h1), sum(h2), sum(h3), sum(h4), sum(h5), sum(h6), sum(h7), sum(h8), sum(h9), sum(h10), sum(h11), sum(h12), sum(h13), sum(h14), sum(h15)
  FROM coverage_daily GROUP BY res, date_trunc('week', day)::date, satellite, cell;

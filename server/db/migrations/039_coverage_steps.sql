-- The coverage builder adds a batch of reports to its cells in steps of a few thousand rows, each
-- in a transaction of its own, so that no statement holds the embedded database for long
-- (docs/architecture.md, "Coverage"). Until the cursor moves past the batch, its last report and
-- the steps already added are kept here: a batch cut short (a crash, another leader) is finished
-- where it stopped, not counted twice.
ALTER TABLE coverage_state
  ADD COLUMN batch_received timestamptz,
  ADD COLUMN batch_device integer,
  ADD COLUMN batch_time timestamptz,
  ADD COLUMN batch_done integer NOT NULL DEFAULT 0;

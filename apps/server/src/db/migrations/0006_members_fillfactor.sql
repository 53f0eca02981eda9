-- Ingestion moves last_active_at forward for every active member in every batch: room on each page lets
-- those updates stay on their page (HOT) and be pruned there, instead of bloating the table.
ALTER TABLE "slack_members" SET (fillfactor = 70);

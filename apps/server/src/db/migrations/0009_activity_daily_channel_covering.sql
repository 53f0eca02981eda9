-- The per-channel rollup's channel index carries the member and the counts, so a channel filter's rows are read
-- as one index-only range per channel instead of random heap pages (a year of a channel on a big workspace).
DROP INDEX "activity_daily_channel_idx";
--> statement-breakpoint
CREATE INDEX "activity_daily_channel_idx" ON "activity_daily" USING btree ("team_id", "channel_id", "day", "member_id")
  INCLUDE ("messages", "replies", "reactions");

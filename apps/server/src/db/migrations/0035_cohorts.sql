-- Retention by join cohort (activity/cohorts.ts) reads each cohort member's first weeks as one short range of
-- this index: carrying the counts (INCLUDE) it is read index-only. Same name, same key (the schema's index), so
-- every other reader of it is unchanged.
DROP INDEX IF EXISTS "activity_member_daily_member_idx";--> statement-breakpoint
CREATE INDEX "activity_member_daily_member_idx" ON "activity_member_daily" USING btree ("team_id","member_id","day") INCLUDE ("messages","replies","reactions");

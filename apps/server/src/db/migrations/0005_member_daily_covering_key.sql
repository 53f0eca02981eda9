-- The per-member rollups' primary keys carry the counts, so a window's rows are read as one ordered
-- index-only range instead of random heap pages (year-long and custom ranges on big workspaces).
ALTER TABLE "activity_member_daily" DROP CONSTRAINT "activity_member_daily_team_id_day_member_id_pk";
--> statement-breakpoint
ALTER TABLE "activity_member_daily" ADD CONSTRAINT "activity_member_daily_team_id_day_member_id_pk"
  PRIMARY KEY ("team_id", "day", "member_id") INCLUDE ("messages", "replies", "reactions");
--> statement-breakpoint
ALTER TABLE "activity_member_monthly" DROP CONSTRAINT "activity_member_monthly_team_id_month_member_id_pk";
--> statement-breakpoint
ALTER TABLE "activity_member_monthly" ADD CONSTRAINT "activity_member_monthly_team_id_month_member_id_pk"
  PRIMARY KEY ("team_id", "month", "member_id") INCLUDE ("messages", "replies", "reactions");

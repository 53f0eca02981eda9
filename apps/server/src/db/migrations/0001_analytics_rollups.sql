CREATE TABLE "activity_channel_daily" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"channel_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_channel_daily_team_id_day_channel_id_pk" PRIMARY KEY("team_id","day","channel_id")
);
--> statement-breakpoint
CREATE TABLE "activity_member_daily" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"member_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_member_daily_team_id_day_member_id_pk" PRIMARY KEY("team_id","day","member_id")
);
--> statement-breakpoint
CREATE TABLE "activity_team_hourly" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"hour" integer NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_team_hourly_team_id_day_hour_pk" PRIMARY KEY("team_id","day","hour")
);
--> statement-breakpoint
CREATE TABLE "keyword_daily" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"term" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "keyword_daily_team_id_day_term_pk" PRIMARY KEY("team_id","day","term")
);
--> statement-breakpoint
ALTER TABLE "slack_members" ADD COLUMN "slack_updated" bigint;--> statement-breakpoint
ALTER TABLE "slack_reactions" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "activity_member_daily_member_idx" ON "activity_member_daily" USING btree ("team_id","member_id","day");
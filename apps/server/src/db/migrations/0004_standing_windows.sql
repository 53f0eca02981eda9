CREATE TABLE "activity_member_windows" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"w7_messages" integer DEFAULT 0 NOT NULL,
	"w7_replies" integer DEFAULT 0 NOT NULL,
	"w7_reactions" integer DEFAULT 0 NOT NULL,
	"p7_messages" integer DEFAULT 0 NOT NULL,
	"p7_replies" integer DEFAULT 0 NOT NULL,
	"p7_reactions" integer DEFAULT 0 NOT NULL,
	"w14_messages" integer DEFAULT 0 NOT NULL,
	"w14_replies" integer DEFAULT 0 NOT NULL,
	"w14_reactions" integer DEFAULT 0 NOT NULL,
	"p14_messages" integer DEFAULT 0 NOT NULL,
	"p14_replies" integer DEFAULT 0 NOT NULL,
	"p14_reactions" integer DEFAULT 0 NOT NULL,
	"w90_messages" integer DEFAULT 0 NOT NULL,
	"w90_replies" integer DEFAULT 0 NOT NULL,
	"w90_reactions" integer DEFAULT 0 NOT NULL,
	"p90_messages" integer DEFAULT 0 NOT NULL,
	"p90_replies" integer DEFAULT 0 NOT NULL,
	"p90_reactions" integer DEFAULT 0 NOT NULL,
	"w365_messages" integer DEFAULT 0 NOT NULL,
	"w365_replies" integer DEFAULT 0 NOT NULL,
	"w365_reactions" integer DEFAULT 0 NOT NULL,
	"p365_messages" integer DEFAULT 0 NOT NULL,
	"p365_replies" integer DEFAULT 0 NOT NULL,
	"p365_reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_member_windows_team_id_member_id_pk" PRIMARY KEY("team_id","member_id")
) WITH (fillfactor = 70);
--> statement-breakpoint
CREATE TABLE "activity_team_daily" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"active_members" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_team_daily_team_id_day_pk" PRIMARY KEY("team_id","day")
);
--> statement-breakpoint
CREATE TABLE "activity_window_anchor" (
	"team_id" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Active members per day of the data already ingested; from here on every ingestion batch keeps it.
INSERT INTO "activity_team_daily" ("team_id", "day", "active_members")
SELECT "team_id", "day", count(*)::int FROM "activity_member_daily"
WHERE "messages" + "replies" + "reactions" > 0 GROUP BY "team_id", "day";

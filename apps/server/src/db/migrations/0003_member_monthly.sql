CREATE TABLE "activity_member_monthly" (
	"team_id" text NOT NULL,
	"month" date NOT NULL,
	"member_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_member_monthly_team_id_month_member_id_pk" PRIMARY KEY("team_id","month","member_id")
);

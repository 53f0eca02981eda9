CREATE TABLE "digest_deliveries" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"week_start" date NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"email_sent_at" timestamp with time zone,
	"slack_receipt_id" integer,
	"done_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "digest_deliveries_team_id_user_id_week_start_pk" PRIMARY KEY("team_id","user_id","week_start")
);
--> statement-breakpoint
CREATE TABLE "digest_subscriptions" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"email" boolean DEFAULT false NOT NULL,
	"slack_dm" boolean DEFAULT false NOT NULL,
	"day" text DEFAULT 'mon' NOT NULL,
	"hour" integer DEFAULT 9 NOT NULL,
	"enabled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_subscriptions_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "digest_subscriptions" ADD CONSTRAINT "digest_subscriptions_team_id_user_id_workspace_admins_team_id_user_id_fk" FOREIGN KEY ("team_id","user_id") REFERENCES "public"."workspace_admins"("team_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "digest_deliveries_open_idx" ON "digest_deliveries" USING btree ("claimed_at") WHERE done_at is null;--> statement-breakpoint
CREATE INDEX "member_level_changes_day_idx" ON "member_level_changes" USING btree ("team_id","day");
CREATE TABLE "conversation_mentions_seen" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"how" text NOT NULL,
	"seen_by" text,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_mentions_seen_team_id_channel_id_ts_pk" PRIMARY KEY("team_id","channel_id","ts")
);
--> statement-breakpoint
CREATE TABLE "conversation_pins" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"pinned_by" text,
	"changed_at" timestamp with time zone NOT NULL,
	"pinned" boolean NOT NULL,
	CONSTRAINT "conversation_pins_team_id_channel_id_ts_pk" PRIMARY KEY("team_id","channel_id","ts")
);
--> statement-breakpoint
CREATE INDEX "slack_messages_channel_posts_idx" ON "slack_messages" USING btree ("team_id","channel_id","posted_at") WHERE not is_reply and deleted_at is null;
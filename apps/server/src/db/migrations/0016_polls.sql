CREATE TABLE "poll_messages" (
	"poll_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	CONSTRAINT "poll_messages_poll_id_channel_id_pk" PRIMARY KEY("poll_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "poll_reactions" (
	"poll_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"option" integer NOT NULL,
	"present" boolean NOT NULL,
	"at" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "poll_reactions_poll_id_member_id_option_pk" PRIMARY KEY("poll_id","member_id","option")
);
--> statement-breakpoint
CREATE TABLE "poll_votes" (
	"poll_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"option" integer NOT NULL,
	"voted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "poll_votes_poll_id_member_id_pk" PRIMARY KEY("poll_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "polls" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "polls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"question" text NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"channel_ids" jsonb NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"type" text NOT NULL,
	"created_by" text NOT NULL,
	"created_by_user" text,
	"post_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"receipt_id" bigint,
	"claimed_until" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"final_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "poll_messages" ADD CONSTRAINT "poll_messages_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_reactions" ADD CONSTRAINT "poll_reactions_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "poll_messages_ts_key" ON "poll_messages" USING btree ("team_id","channel_id","ts");--> statement-breakpoint
CREATE INDEX "polls_team_idx" ON "polls" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "polls_to_post_idx" ON "polls" USING btree ("post_at") WHERE receipt_id is null and deleted_at is null;--> statement-breakpoint
CREATE INDEX "polls_to_close_idx" ON "polls" USING btree ("expires_at") WHERE final_at is null and deleted_at is null;
CREATE TABLE "poll_recurrences" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "poll_recurrences_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"question" text NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"channel_ids" jsonb NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"created_by" text NOT NULL,
	"created_by_user" text,
	"voting" text DEFAULT 'emoji' NOT NULL,
	"ballot" jsonb,
	"frequency" text NOT NULL,
	"days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time" text NOT NULL,
	"duration_hours" integer NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "recurrence_id" integer;--> statement-breakpoint
CREATE INDEX "poll_recurrences_team_idx" ON "poll_recurrences" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "poll_recurrences_due_idx" ON "poll_recurrences" USING btree ("next_run_at") WHERE deleted_at is null and next_run_at is not null;--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_recurrence_id_poll_recurrences_id_fk" FOREIGN KEY ("recurrence_id") REFERENCES "public"."poll_recurrences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "polls_recurrence_run_key" ON "polls" USING btree ("recurrence_id","post_at");
CREATE TABLE "delivery_images" (
	"file_id" text PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_pacing" (
	"team_id" text NOT NULL,
	"key" text NOT NULL,
	"tat" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_pacing_team_id_key_pk" PRIMARY KEY("team_id","key")
);
--> statement-breakpoint
CREATE TABLE "delivery_receipts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"action_type" text NOT NULL,
	"description" text NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"message" jsonb NOT NULL,
	"created_by" text,
	"idempotency_key" text,
	"total" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"retryable" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "delivery_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"receipt_id" bigint NOT NULL,
	"team_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"first_attempt_at" timestamp with time zone,
	"uncertain" integer DEFAULT 0 NOT NULL,
	"channel_id" text,
	"ts" text,
	"error" text,
	"retryable" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "action_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"action_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"run_key" text NOT NULL,
	"member_id" text,
	"due_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"receipt_id" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"message" text NOT NULL,
	"html" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"channel_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_members" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"send_to_workspace" boolean DEFAULT false NOT NULL,
	"send_dm" boolean DEFAULT false NOT NULL,
	"frequency" text,
	"days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time" text,
	"run_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_recipients" ADD CONSTRAINT "delivery_recipients_receipt_id_delivery_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."delivery_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_runs" ADD CONSTRAINT "action_runs_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_images_team_idx" ON "delivery_images" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "delivery_receipts_team_idx" ON "delivery_receipts" USING btree ("team_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_receipts_idempotency_key" ON "delivery_receipts" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_recipients_target_key" ON "delivery_recipients" USING btree ("receipt_id","kind","target_id");--> statement-breakpoint
CREATE INDEX "delivery_recipients_due_idx" ON "delivery_recipients" USING btree ("team_id","due_at") WHERE state in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "delivery_recipients_receipt_state_idx" ON "delivery_recipients" USING btree ("receipt_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "action_runs_key" ON "action_runs" USING btree ("action_id","run_key");--> statement-breakpoint
CREATE INDEX "action_runs_due_idx" ON "action_runs" USING btree ("due_at") WHERE status = 'due';--> statement-breakpoint
CREATE INDEX "actions_team_kind_idx" ON "actions" USING btree ("team_id","kind","id");--> statement-breakpoint
CREATE INDEX "actions_due_idx" ON "actions" USING btree ("next_run_at") WHERE active and next_run_at is not null;
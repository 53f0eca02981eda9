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
ALTER TABLE "delivery_recipients" ADD CONSTRAINT "delivery_recipients_receipt_id_delivery_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."delivery_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_images_team_idx" ON "delivery_images" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "delivery_receipts_team_idx" ON "delivery_receipts" USING btree ("team_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_recipients_target_key" ON "delivery_recipients" USING btree ("receipt_id","kind","target_id");--> statement-breakpoint
CREATE INDEX "delivery_recipients_due_idx" ON "delivery_recipients" USING btree ("team_id","due_at") WHERE state in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "delivery_recipients_receipt_state_idx" ON "delivery_recipients" USING btree ("receipt_id","state");
CREATE TABLE "delivery_member_marks" (
	"team_id" text NOT NULL,
	"scope" text NOT NULL,
	"member_id" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_member_marks_team_id_scope_member_id_pk" PRIMARY KEY("team_id","scope","member_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"token" text NOT NULL,
	"status_code" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_team_id_user_id_key_pk" PRIMARY KEY("team_id","user_id","key")
);
--> statement-breakpoint
ALTER TABLE "delivery_receipts" ADD COLUMN "error" text;--> statement-breakpoint
CREATE INDEX "delivery_receipts_team_created_idx" ON "delivery_receipts" USING btree ("team_id","created_at");
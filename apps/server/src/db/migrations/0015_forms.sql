CREATE TABLE "form_instances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"form_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"run_key" text NOT NULL,
	"execution_time" timestamp with time zone NOT NULL,
	"audience" jsonb NOT NULL,
	"status" text NOT NULL,
	"receipt_id" bigint,
	"recipients" integer DEFAULT 0 NOT NULL,
	"error" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_responses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" bigint NOT NULL,
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"answers" jsonb NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ack_receipt_id" bigint
);
--> statement-breakpoint
CREATE TABLE "forms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "forms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"questions" jsonb NOT NULL,
	"ack_message" text NOT NULL,
	"channel_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_members" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dm_channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"send_to_workspace" boolean DEFAULT false NOT NULL,
	"frequency" text NOT NULL,
	"days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"time" text,
	"run_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "form_instances" ADD CONSTRAINT "form_instances_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_responses" ADD CONSTRAINT "form_responses_instance_id_form_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."form_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_instances_key" ON "form_instances" USING btree ("form_id","run_key");--> statement-breakpoint
CREATE INDEX "form_instances_team_form_idx" ON "form_instances" USING btree ("team_id","form_id","id");--> statement-breakpoint
CREATE INDEX "form_instances_due_idx" ON "form_instances" USING btree ("execution_time") WHERE status = 'due';--> statement-breakpoint
CREATE UNIQUE INDEX "form_responses_member_key" ON "form_responses" USING btree ("instance_id","member_id");--> statement-breakpoint
CREATE INDEX "forms_team_idx" ON "forms" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "forms_due_idx" ON "forms" USING btree ("next_run_at") WHERE deleted_at is null and next_run_at is not null;
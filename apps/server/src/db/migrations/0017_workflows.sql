CREATE TABLE "workflow_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workflow_id" integer NOT NULL,
	"trigger_id" bigint NOT NULL,
	"team_id" text NOT NULL,
	"position" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'due' NOT NULL,
	"receipt_id" bigint,
	"form_instance_id" bigint,
	"sent_at" timestamp with time zone,
	"error" text,
	"claimed_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workflow_tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflow_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"workflow_id" integer NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"delay_unit" text,
	"delay_secs" integer DEFAULT 0 NOT NULL,
	"content" jsonb NOT NULL,
	"form_id" integer
);
--> statement-breakpoint
CREATE TABLE "workflow_triggers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workflow_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"trigger_key" text NOT NULL,
	"member_id" text,
	"triggered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workflows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"sender" text NOT NULL,
	"admin_user" text,
	"trigger_type" text NOT NULL,
	"channel_id" text,
	"days" integer,
	"trigger_at" timestamp with time zone,
	"fired_at" timestamp with time zone,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"scanned_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "workflow_id" integer;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_trigger_id_workflow_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."workflow_triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_triggers" ADD CONSTRAINT "workflow_triggers_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_steps_key" ON "workflow_steps" USING btree ("trigger_id","position");--> statement-breakpoint
CREATE INDEX "workflow_steps_task_idx" ON "workflow_steps" USING btree ("workflow_id","position","id");--> statement-breakpoint
CREATE INDEX "workflow_steps_due_idx" ON "workflow_steps" USING btree ("due_at") WHERE status = 'due';--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_tasks_position" ON "workflow_tasks" USING btree ("workflow_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_triggers_key" ON "workflow_triggers" USING btree ("workflow_id","trigger_key");--> statement-breakpoint
CREATE INDEX "workflow_triggers_history_idx" ON "workflow_triggers" USING btree ("workflow_id","triggered_at");--> statement-breakpoint
CREATE INDEX "workflows_team_idx" ON "workflows" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "workflows_time_due_idx" ON "workflows" USING btree ("trigger_at") WHERE trigger_type = 'time' and fired_at is null;
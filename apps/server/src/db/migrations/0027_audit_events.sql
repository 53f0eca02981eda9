CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_user_id" text,
	"actor_email" text,
	"actor_label" text,
	"action" text NOT NULL,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"objects" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" integer NOT NULL,
	"summary" text NOT NULL,
	CONSTRAINT "audit_events_actor_kind_check" CHECK ("audit_events"."actor_kind" in ('user', 'api_key'))
);
--> statement-breakpoint
CREATE INDEX "audit_events_team_at_idx" ON "audit_events" USING btree ("team_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");
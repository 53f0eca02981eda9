CREATE TABLE "workspace_senders" (
	"team_id" text NOT NULL,
	"slack_user_id" text NOT NULL,
	"user_token_sealed" text NOT NULL,
	"user_scopes" text,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_senders_team_id_slack_user_id_pk" PRIMARY KEY("team_id","slack_user_id")
);
--> statement-breakpoint
ALTER TABLE "workspace_senders" ADD CONSTRAINT "workspace_senders_team_id_workspaces_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."workspaces"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_senders" ADD CONSTRAINT "workspace_senders_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Tokens stored before: each admin's Slack user becomes a sender.
INSERT INTO "workspace_senders" ("team_id", "slack_user_id", "user_token_sealed", "user_scopes", "added_by", "created_at")
SELECT DISTINCT ON ("team_id", "slack_user_id") "team_id", "slack_user_id", "user_token_sealed", "user_scopes", "user_id", "created_at"
FROM "workspace_admins"
WHERE "slack_user_id" IS NOT NULL AND "user_token_sealed" IS NOT NULL
ORDER BY "team_id", "slack_user_id", "created_at" DESC
ON CONFLICT DO NOTHING;

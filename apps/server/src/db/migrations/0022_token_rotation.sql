ALTER TABLE "workspace_senders" ADD COLUMN "user_refresh_token_sealed" text;--> statement-breakpoint
ALTER TABLE "workspace_senders" ADD COLUMN "user_token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspace_senders" ADD COLUMN "user_token_refreshing_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "bot_refresh_token_sealed" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "bot_token_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "bot_token_refreshing_until" timestamp with time zone;
CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "login_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"country" text NOT NULL,
	"password_hash" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text,
	"html" text,
	"transport" text NOT NULL,
	"message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slack_oauth_states" (
	"team_id" text,
	"state" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workspace_admins" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"slack_user_id" text,
	"user_token_sealed" text,
	"user_scopes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_admins_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"team_id" text PRIMARY KEY NOT NULL,
	"workspace_name" text NOT NULL,
	"domain" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"bot_token_sealed" text,
	"bot_user_id" text,
	"app_id" text,
	"bot_scopes" text,
	"status" text DEFAULT 'active' NOT NULL,
	"disconnected_at" timestamp with time zone,
	"disconnect_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_daily" (
	"team_id" text NOT NULL,
	"day" date NOT NULL,
	"member_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_daily_team_id_day_member_id_channel_id_pk" PRIMARY KEY("team_id","day","member_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "slack_backfills" (
	"team_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"days" integer NOT NULL,
	"state" jsonb NOT NULL,
	"channels_total" integer DEFAULT 0 NOT NULL,
	"channels_done" integer DEFAULT 0 NOT NULL,
	"messages" bigint DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"rate_limited" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"leased_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "slack_channel_members" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"member_id" text NOT NULL,
	"joined_at" timestamp with time zone,
	CONSTRAINT "slack_channel_members_team_id_channel_id_member_id_pk" PRIMARY KEY("team_id","channel_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "slack_member_events" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "slack_member_events_team_id_member_id_kind_at_pk" PRIMARY KEY("team_id","member_id","kind","at")
);
--> statement-breakpoint
CREATE TABLE "slack_channels" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"is_archived" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slack_channels_team_id_channel_id_pk" PRIMARY KEY("team_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "slack_inbox" (
	"event_id" text PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "slack_members" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"real_name" text DEFAULT '' NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"email" text,
	"avatar_url" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_owner" boolean DEFAULT false NOT NULL,
	"is_bot" boolean DEFAULT false NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"tz" text,
	"joined_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	"last_active_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slack_members_team_id_member_id_pk" PRIMARY KEY("team_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "slack_messages" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"user_id" text,
	"thread_ts" text,
	"subtype" text,
	"text" text DEFAULT '' NOT NULL,
	"is_reply" boolean DEFAULT false NOT NULL,
	"day" date NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "slack_messages_team_id_channel_id_ts_pk" PRIMARY KEY("team_id","channel_id","ts")
);
--> statement-breakpoint
CREATE TABLE "slack_reactions" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"day" date NOT NULL,
	"reacted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "slack_reactions_team_id_channel_id_ts_user_id_name_pk" PRIMARY KEY("team_id","channel_id","ts","user_id","name")
);
--> statement-breakpoint
CREATE TABLE "member_tags" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"tag_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_tags_team_id_member_id_tag_id_pk" PRIMARY KEY("team_id","member_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slack_oauth_states" ADD CONSTRAINT "slack_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_admins" ADD CONSTRAINT "workspace_admins_team_id_workspaces_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."workspaces"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_admins" ADD CONSTRAINT "workspace_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_tags" ADD CONSTRAINT "member_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" USING btree ("user_id","kind");--> statement-breakpoint
CREATE INDEX "login_attempts_key_idx" ON "login_attempts" USING btree ("key","attempted_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "mail_outbox_to_idx" ON "mail_outbox" USING btree ("to","created_at");--> statement-breakpoint
CREATE INDEX "activity_daily_member_idx" ON "activity_daily" USING btree ("team_id","member_id","day");--> statement-breakpoint
CREATE INDEX "activity_daily_channel_idx" ON "activity_daily" USING btree ("team_id","channel_id","day");--> statement-breakpoint
CREATE INDEX "slack_channel_members_member_idx" ON "slack_channel_members" USING btree ("team_id","member_id");--> statement-breakpoint
CREATE INDEX "slack_member_events_day_idx" ON "slack_member_events" USING btree ("team_id","day");--> statement-breakpoint
CREATE INDEX "slack_inbox_pending_idx" ON "slack_inbox" USING btree ("received_at") WHERE "slack_inbox"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "slack_members_email_idx" ON "slack_members" USING btree ("team_id","email");--> statement-breakpoint
CREATE INDEX "slack_messages_user_idx" ON "slack_messages" USING btree ("team_id","user_id","posted_at");--> statement-breakpoint
CREATE INDEX "slack_messages_thread_idx" ON "slack_messages" USING btree ("team_id","channel_id","thread_ts");--> statement-breakpoint
CREATE INDEX "slack_messages_posted_idx" ON "slack_messages" USING btree ("team_id","posted_at");--> statement-breakpoint
CREATE INDEX "slack_messages_text_idx" ON "slack_messages" USING gin (to_tsvector('english', "text"));--> statement-breakpoint
CREATE INDEX "slack_reactions_user_idx" ON "slack_reactions" USING btree ("team_id","user_id","reacted_at");--> statement-breakpoint
CREATE INDEX "member_tags_tag_idx" ON "member_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_team_name_key" ON "tags" USING btree ("team_id",lower("name"));
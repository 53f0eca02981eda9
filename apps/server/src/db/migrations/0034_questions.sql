CREATE TABLE "conversation_questions_handled" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"handled_by" text,
	"handled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_questions_handled_team_id_channel_id_ts_pk" PRIMARY KEY("team_id","channel_id","ts")
);
--> statement-breakpoint
-- Questions (conversations/question-rule.ts questionCondition, word for word): a window's questions found without reading the other messages.
CREATE INDEX "slack_messages_questions_idx" ON "slack_messages" USING btree ("team_id","posted_at") WHERE not is_reply and deleted_at is null and regexp_replace(text, '`[^`]*`|<[^>]*>|https?://[^ \t\r\n]+', ' ', 'g') ~* '\?|^[ \t\r\n]*(doesn''t|anybody|aren''t|didn''t|should|anyone|whose|where|which|isn''t|can''t|could|don''t|would|won''t|shall|might|whom|what|when|were|does|will|have|who|why|how|are|was|can|did|may|has|had|is|am|do)($|[^a-z0-9_])';

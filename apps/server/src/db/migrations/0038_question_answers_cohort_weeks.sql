CREATE TABLE "activity_member_cohort_weeks" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"join_day" date NOT NULL,
	"weeks" integer NOT NULL,
	"last_day" date,
	CONSTRAINT "activity_member_cohort_weeks_team_id_member_id_pk" PRIMARY KEY("team_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "conversation_question_answers" (
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"user_id" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"first_answer_at" timestamp with time zone,
	CONSTRAINT "conversation_question_answers_team_id_channel_id_ts_pk" PRIMARY KEY("team_id","channel_id","ts")
);
--> statement-breakpoint
-- Every question there is (conversations/question-answers.ts CANDIDATE: the rule of question-rule.ts word for word, so
-- slack_messages_questions_idx serves it) with its first answer (firstAnswerOf): the ingestion keeps them from now on.
INSERT INTO "conversation_question_answers" ("team_id", "channel_id", "ts", "user_id", "posted_at", "first_answer_at")
SELECT m.team_id, m.channel_id, m.ts, m.user_id, m.posted_at, least(
    (select min(r.posted_at) from slack_messages r where r.team_id = m.team_id and r.channel_id = m.channel_id
      and r.thread_ts = m.ts and r.is_reply and r.deleted_at is null and r.user_id is distinct from m.user_id),
    (select min(x.reacted_at) from slack_reactions x where x.team_id = m.team_id and x.channel_id = m.channel_id
      and x.ts = m.ts and x.removed_at is null and x.user_id <> m.user_id))
FROM slack_messages m
WHERE not m.is_reply and m.deleted_at is null and regexp_replace(m.text, '`[^`]*`|<[^>]*>|https?://[^ \t\r\n]+', ' ', 'g') ~* '\?|^[ \t\r\n]*(doesn''t|anybody|aren''t|didn''t|should|anyone|whose|where|which|isn''t|can''t|could|don''t|would|won''t|shall|might|whom|what|when|were|does|will|have|who|why|how|are|was|can|did|may|has|had|is|am|do)($|[^a-z0-9_])'
  and (m.subtype is null or m.subtype in ('file_share', 'me_message')) and m.user_id is not null
  and m.channel_id not like 'D%';--> statement-breakpoint
-- Every member's cohort weeks (activity/cohort-weeks.ts upsertFrom) from the member-day rollup.
INSERT INTO "activity_member_cohort_weeks" ("team_id", "member_id", "join_day", "weeks", "last_day")
SELECT x.team_id, x.member_id, x.jd, coalesce(d.weeks, 0), d.last_day
FROM (select s.team_id, s.member_id, (s.joined_at at time zone ws.timezone)::date as jd
    from slack_members s join workspaces ws on ws.team_id = s.team_id where s.joined_at is not null) x,
  lateral (select bit_or(1 << ((d.day - x.jd) / 7)) as weeks, max(d.day) as last_day
    from activity_member_daily d where d.team_id = x.team_id and d.member_id = x.member_id
      and d.day >= x.jd and d.day < x.jd + 84 and d.messages + d.replies + d.reactions > 0) d;--> statement-breakpoint
-- Response times read a window's questions index-only: the index carries what they read (INCLUDE; same name and
-- key as the schema's).
CREATE INDEX "conversation_question_answers_posted_idx" ON "conversation_question_answers" USING btree ("team_id","posted_at") INCLUDE ("channel_id","user_id","first_answer_at");--> statement-breakpoint
CREATE INDEX "conversation_question_answers_unanswered_idx" ON "conversation_question_answers" USING btree ("team_id","posted_at") WHERE first_answer_at is null;--> statement-breakpoint
-- Cohorts read a window of join days index-only (activity/cohorts.ts): the index carries what they read.
CREATE INDEX "activity_member_cohort_weeks_join_idx" ON "activity_member_cohort_weeks" USING btree ("team_id","join_day") INCLUDE ("member_id","weeks","last_day");

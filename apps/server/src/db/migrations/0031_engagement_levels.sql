CREATE TABLE "member_level_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "member_level_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"from_level" text,
	"to_level" text NOT NULL,
	"day" date NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_levels" (
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"level" text NOT NULL,
	"since" date NOT NULL,
	CONSTRAINT "member_levels_team_id_member_id_pk" PRIMARY KEY("team_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "member_levels_anchor" (
	"team_id" text PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "member_level_changes_member_idx" ON "member_level_changes" USING btree ("team_id","member_id","id");--> statement-breakpoint
CREATE INDEX "member_levels_level_idx" ON "member_levels" USING btree ("team_id","level","member_id");
CREATE TABLE "poll_choices" (
	"poll_id" integer NOT NULL,
	"voter" text NOT NULL,
	"option" integer NOT NULL,
	"voted_at" timestamp with time zone,
	CONSTRAINT "poll_choices_poll_id_voter_option_pk" PRIMARY KEY("poll_id","voter","option")
);
--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "voting" text DEFAULT 'emoji' NOT NULL;--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "ballot" jsonb;--> statement-breakpoint
ALTER TABLE "poll_choices" ADD CONSTRAINT "poll_choices_poll_id_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."polls"("id") ON DELETE cascade ON UPDATE no action;
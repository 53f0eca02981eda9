CREATE TABLE "bucket_members" (
	"bucket_id" integer NOT NULL,
	"team_id" text NOT NULL,
	"member_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bucket_members_bucket_id_member_id_pk" PRIMARY KEY("bucket_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "buckets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "buckets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_execute" timestamp with time zone,
	"last_count" integer,
	"last_from_day" date,
	"last_to_day" date,
	"last_channels" text
);
--> statement-breakpoint
ALTER TABLE "bucket_members" ADD CONSTRAINT "bucket_members_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bucket_members_member_idx" ON "bucket_members" USING btree ("team_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "buckets_team_name_key" ON "buckets" USING btree ("team_id",lower("name"));
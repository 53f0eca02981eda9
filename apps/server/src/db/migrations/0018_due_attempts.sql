CREATE TABLE "due_attempts" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "due_attempts_kind_key_pk" PRIMARY KEY("kind","key")
);

CREATE TABLE "delivery_replies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"ts" text NOT NULL,
	"thread_ts" text,
	"member_id" text NOT NULL,
	"receipt_id" bigint,
	"recipient_id" bigint,
	"text" text NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "delivery_replies" ADD CONSTRAINT "delivery_replies_receipt_id_delivery_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."delivery_receipts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_replies" ADD CONSTRAINT "delivery_replies_recipient_id_delivery_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."delivery_recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_replies_message_key" ON "delivery_replies" USING btree ("team_id","channel_id","ts");--> statement-breakpoint
CREATE INDEX "delivery_replies_receipt_idx" ON "delivery_replies" USING btree ("receipt_id","sent_at");--> statement-breakpoint
CREATE INDEX "delivery_replies_member_idx" ON "delivery_replies" USING btree ("team_id","member_id","sent_at");--> statement-breakpoint
CREATE INDEX "delivery_recipients_conversation_idx" ON "delivery_recipients" USING btree ("team_id","channel_id","ts") WHERE channel_id is not null and ts is not null;
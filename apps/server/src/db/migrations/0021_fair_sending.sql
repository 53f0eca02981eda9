ALTER TABLE "delivery_receipts" ADD COLUMN "served_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "delivery_receipts_open_idx" ON "delivery_receipts" USING btree ("team_id") WHERE finished_at is null;--> statement-breakpoint
CREATE INDEX "delivery_recipients_receipt_due_idx" ON "delivery_recipients" USING btree ("receipt_id","due_at","id") WHERE state in ('pending', 'sending');
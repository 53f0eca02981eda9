CREATE INDEX "slack_members_real_name_idx" ON "slack_members" USING btree ("team_id",lower("real_name"),"member_id") WHERE not is_bot;--> statement-breakpoint
CREATE INDEX "slack_members_display_name_idx" ON "slack_members" USING btree ("team_id",lower(coalesce(nullif("display_name", ''), "real_name")),"member_id") WHERE not is_bot;--> statement-breakpoint
CREATE INDEX "slack_members_email_sort_idx" ON "slack_members" USING btree ("team_id",lower("email"),"member_id") WHERE not is_bot;--> statement-breakpoint
CREATE INDEX "slack_members_joined_idx" ON "slack_members" USING btree ("team_id","joined_at","member_id") WHERE not is_bot;--> statement-breakpoint
CREATE INDEX "slack_members_people_idx" ON "slack_members" USING btree ("team_id","deleted") WHERE not is_bot;
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every mail the product sends. With the development outbox the body is kept so a person (or a test)
 * can open the links; with SMTP only the envelope is kept, never the body with its tokens.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text'),
    html: text('html'),
    transport: text('transport', { enum: ['outbox', 'smtp'] }).notNull(),
    messageId: text('message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to, t.createdAt)],
);

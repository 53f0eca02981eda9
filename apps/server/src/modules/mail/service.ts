import nodemailer from 'nodemailer';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { mailRepo } from './repo.ts';

export type Mail = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  transport: 'smtp' | 'outbox';
  deliver(mail: Mail): Promise<void>;
  close(): void;
};

const LINK = /https?:\/\/[^\s"'<>]+/g;
export const linksIn = (text: string): string[] => text.match(LINK) ?? [];

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise stores the mail in the development outbox (and, in
 * development only, logs its links), so sign-up and password reset work offline. Links are never logged
 * outside development: they take over accounts.
 */
export function createMailer(opts: {
  db: Db;
  smtpUrl?: string;
  from: string;
  logger: Logger;
  logLinks: boolean;
}): Mailer {
  const repo = mailRepo(opts.db);
  if (opts.smtpUrl) {
    const transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      transport: 'smtp',
      async deliver(mail) {
        const info = await transporter.sendMail({ from: opts.from, ...mail });
        // Only the envelope is kept: the body carries single-use tokens.
        await repo.record({
          to: mail.to,
          subject: mail.subject,
          transport: 'smtp',
          messageId: info.messageId,
        });
        opts.logger.info({ to: mail.to, subject: mail.subject }, 'mail sent via SMTP');
      },
      close: () => transporter.close(),
    };
  }
  return {
    transport: 'outbox',
    async deliver(mail) {
      await repo.record({ ...mail, transport: 'outbox' });
      opts.logger.info(
        { to: mail.to, subject: mail.subject, ...(opts.logLinks ? { links: linksIn(mail.text) } : {}) },
        'mail stored in the development outbox (no SMTP_URL set)',
      );
    },
    close: () => {},
  };
}

import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import type { Mailer } from './service.ts';

export const mailSendPayload = z.object({
  to: z.string().email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
});

/** `mail.send`: every mail goes through the queue, so a slow SMTP server never holds up a request. */
export const mailSendJob = (mailer: Mailer) =>
  defineJob({
    name: 'mail.send',
    payload: mailSendPayload,
    retryLimit: 5,
    retryDelaySeconds: 10,
    handle: (data) => mailer.deliver(data),
  });

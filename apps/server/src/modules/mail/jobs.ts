import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';

export const mailSendPayload = z.object({
  to: z.string().email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
});

/** `mail.send`: every mail goes through the queue, so a slow SMTP server never holds up a request. */
export const mailSendJob = defineJob({
  id: 'mail.send',
  payload: mailSendPayload,
  retryLimit: 5,
  retryDelaySeconds: 10,
  handle: (data, { ctx }) => ctx.mailer.deliver(data),
});

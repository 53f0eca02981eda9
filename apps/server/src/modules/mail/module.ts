import { defineModule } from '../module.ts';
import { mailSendJob } from './jobs.ts';

/** Mail: every mail goes through `mail.send`; the development outbox (routes.ts) is mounted by app.ts under /api. */
export const mailModule = defineModule({ name: 'mail', jobs: [mailSendJob] });

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app.ts';
import { uniqueEmail } from '../../testing/factories.ts';

type Received = { from: string; to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await buildTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Flywheel <hello@flywheel.test>',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

async function waitFor(to: string): Promise<Received> {
  for (let i = 0; i < 100; i++) {
    const hit = received.find((m) => m.to.includes(to));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMTP delivery to ${to}`);
}

describe('mail through a real SMTP peer', () => {
  it('delivers the verification mail with its link, and keeps no body', async () => {
    const email = uniqueEmail('smtp');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v0/auth/signup',
      payload: { email, password: 'hunter2 rides the tram', username: 'Sam', country: 'Norway' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await waitFor(email);
    expect(mail.from).toBe('hello@flywheel.test');
    expect(mail.raw).toMatch(/Subject: Verify your email for Flywheel/);
    expect(mail.raw.replace(/=\r?\n/g, '')).toMatch(
      /http:\/\/localhost:3000\/auth\/verify-email\?token=3D[\w-]+|verify-email\?token=[\w-]+/,
    );
    // The job records the delivery once the peer has accepted it: wait for that row.
    let rows = { rows: [] as unknown[] };
    for (let i = 0; i < 50 && rows.rows.length === 0; i++) {
      rows = await t.ctx.database.executeSql(
        'select transport, text, html, message_id from mail_outbox where "to" = $1',
        [email],
      );
      if (rows.rows.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows.rows).toEqual([expect.objectContaining({ transport: 'smtp', text: null, html: null })]);
  });

  it('does not expose the development outbox when SMTP is configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dev/outbox' });
    expect(res.statusCode).toBe(404);
  });
});

import { expect, type APIRequestContext, type Page } from '@playwright/test';

let n = 0;
export const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++n}@example.com`;

/** The newest link of the newest matching mail in the development outbox. */
export async function outboxLink(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const mail = ((await res.json()).messages as { subject: string; links: string[] }[]).find((m) =>
          subject.test(m.subject),
        );
        link = mail?.links[0];
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return link!;
}

/** A verified account made through the API (for tests about other flows). */
export async function verifiedAccount(request: APIRequestContext, prefix = 'user') {
  const email = uniqueEmail(prefix);
  const password = 'correct horse battery';
  const res = await request.post('/api/v0/auth/signup', {
    data: { email, password, username: 'Riley Admin', country: 'Canada' },
  });
  expect(res.status()).toBe(201);
  const link = await outboxLink(request, email, /verify/i);
  const token = new URL(link).searchParams.get('token');
  expect((await request.post('/api/v0/auth/verifyemail', { data: { token } })).status()).toBe(200);
  return { email, password };
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
}

/** The server finishes connecting its demo workspace just after it starts listening: wait for it. */
export async function demoCredentials(
  request: APIRequestContext,
): Promise<{ email: string; password: string }> {
  let creds: { email: string; password: string } | undefined;
  await expect
    .poll(
      async () => {
        const c = (await (await request.get('/api/v0/public/config')).json()) as {
          demoMode: boolean;
          demoEmail: string;
          demoPassword: string;
        };
        if (c.demoMode) creds = { email: c.demoEmail, password: c.demoPassword };
        return c.demoMode;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return creds!;
}

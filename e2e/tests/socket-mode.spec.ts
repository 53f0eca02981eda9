import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { socketServer } from '../servers.ts';

/**
 * The whole demo in Socket Mode (playwright.config.ts's second server, SLACK_SOCKET_MODE=1): its emulator has no
 * Request URLs, so the demo's poll votes (reaction events), its form answered in a Slack modal (block_actions and
 * view_submission), its workflow fired by channel joins (member_joined_channel) and the live messages below all
 * came over the WebSocket. The emulator reports which way each went.
 */
const server = socketServer.baseURL;
const emulator = socketServer.emulatorURL;

const rows = (table: Locator, text: string) => table.locator('tbody tr').filter({ hasText: text });

async function demoLogin(request: APIRequestContext) {
  let creds: { email: string; password: string } | undefined;
  await expect
    .poll(
      async () => {
        const c = await (await request.get(`${server}/api/v0/public/config`)).json();
        if (c.demoMode) creds = { email: c.demoEmail, password: c.demoPassword };
        return c.demoMode as boolean;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  const login = await request.post(`${server}/api/v0/auth/login`, { data: creds });
  return { creds: creds!, headers: { authorization: `Bearer ${(await login.json()).token as string}` } };
}

test.describe.configure({ mode: 'serial' });

test('Socket Mode demo: a poll voted, a form submitted in a modal, a workflow fired and live messages counted, none of it over HTTP', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { creds, headers } = await demoLogin(request);
  const state = await (await request.get(`${emulator}/_admin/state`)).json();
  const teamId = (state.teams as { id: string; installed: boolean }[]).find((t) => t.installed)!.id;
  expect(state.config).toMatchObject({ socketMode: true });
  expect(state.config.eventsUrl).toBeUndefined();
  expect(state.config.interactivityUrl).toBeUndefined();

  // The demo's seed (in the background after its history import) ends with the workflow fired by three joins.
  await expect
    .poll(
      async () => {
        const res = await request.get(`${server}/api/v0/workflows/getworkflows/${teamId}`, { headers });
        const list = (await res.json()).data as { workflow_name: string; triggered: number }[];
        return list.find((w) => w.workflow_name.startsWith('Welcome to #'))?.triggered ?? 0;
      },
      { message: 'the demo seed over Socket Mode', timeout: 180_000 },
    )
    .toBe(3);

  // Live messages: a thread with a word nobody used, posted by members in a channel the app is in.
  const install = await (await request.get(`${emulator}/_admin/teams/${teamId}/install`)).json();
  const channels = (await (await request.get(`${emulator}/_admin/teams/${teamId}/channels`)).json()) as {
    id: string;
    is_im?: boolean;
    is_private?: boolean;
    members?: string[];
  }[];
  const channel = channels.find(
    (c) => !c.is_im && !c.is_private && c.members?.includes(install.botUserId) && c.members.length > 3,
  )!;
  const [author, replier] = channel.members!.filter(
    (id) => id !== install.botUserId && id !== install.installerId && id !== 'USLACKBOT',
  );
  const word = `socketword${Date.now().toString(36)}`;
  const post = async (user: string, text: string, thread_ts?: string) =>
    (await (
      await request.post(`${emulator}/_admin/teams/${teamId}/messages`, {
        data: { channel: channel.id, user, text, ...(thread_ts ? { thread_ts } : {}) },
      })
    ).json()) as { ts: string };
  const parent = await post(author!, `The ${word} plan is ready for review`);
  await post(replier!, `Reviewing the ${word} plan now`, parent.ts);

  await page.goto(`${server}/auth/login`);
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password', { exact: true }).fill(creds.password);
  await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  // The poll the seed voted on with reactions: seven votes.
  await page.goto(`${server}/dashboard/actions/polls`);
  const poll = rows(
    page.getByRole('table', { name: 'Poll Table' }),
    'What should our next community meetup be about?',
  );
  await poll.getByRole('button', { name: /^Details of poll/ }).click();
  const details = page.getByRole('dialog', { name: 'Poll Details' });
  await expect(details.getByRole('table', { name: 'Poll voters' }).locator('tbody tr')).toHaveCount(7);
  await details.getByRole('button', { name: 'Close' }).first().click();

  // The weekly form: three members answered it in the Slack modal.
  await page.goto(`${server}/dashboard/actions/forms`);
  const form = rows(page.getByRole('table', { name: 'Form Table' }), 'Weekly check-in');
  await expect(form.getByRole('button', { name: /3 responses? for / })).toBeVisible();

  // The live thread is found by its word: its messages were counted.
  await page.goto(`${server}/dashboard/actions/threads`);
  const results = page.getByLabel('Search results');
  await expect(async () => {
    await page.getByRole('textbox', { name: 'Search threads' }).fill(word);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(results.getByTestId('search-hit')).toHaveCount(2, { timeout: 5000 });
  }).toPass({ timeout: 30_000 });

  // Nothing went to an HTTP route; events and interactions went over the socket.
  const transports = await (await request.get(`${emulator}/_admin/transports`)).json();
  expect(transports.http).toEqual({ eventPosts: 0, interactions: 0 });
  expect(transports.socket.events).toBeGreaterThan(20);
  expect(transports.socket.interactions).toBeGreaterThanOrEqual(6);
});

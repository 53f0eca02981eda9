import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoTeamId,
  directMessagesTo,
  emulatorURL,
  logIn,
} from './helpers.ts';

/**
 * Issue #38 "Safe sending": an admin outside a channel is stopped before the send (and offered the bot), the
 * toast says how the send ended, the dialogs preview the message and send a test to you first, and deletes ask.
 */

/** Screenshots of the changed screens, at 1440x900 and at a phone's 390x844 (SAFE_SHOTS, for a look). */
const shots = process.env.SAFE_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });
async function shootBoth(page: Page, name: string, again?: () => Promise<void>) {
  if (!shots) return;
  await page.screenshot({ path: `${shots}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await again?.();
  await page.screenshot({ path: `${shots}/${name}-phone.png` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await again?.();
}
const expectAccessible = async (page: Page, what: string, scope?: string) =>
  expect(await axeViolations(page, scope), `axe violations on ${what}`).toEqual([]);

type EmuMessage = {
  ts: string;
  channel: string;
  text: string;
  user?: string;
  bot_id?: string;
  thread_ts?: string;
  deleted?: boolean;
  subtype?: string;
};
type EmuChannel = { id: string; name: string; is_im?: boolean; is_private?: boolean; members?: string[] };

/** The demo workspace in the emulator, as its admin API shows it and as its members act. */
async function workspace(request: APIRequestContext) {
  const teamId = await demoTeamId(request);
  const admin = `${emulatorURL}/_admin/teams/${teamId}`;
  const install = (await (await request.get(`${admin}/install`)).json()) as {
    botUserId: string;
    installerId: string;
  };
  const channels = async () => (await (await request.get(`${admin}/channels`)).json()) as EmuChannel[];
  return {
    teamId,
    install,
    channels,
    messages: async (channel: string) =>
      (await (await request.get(`${admin}/messages?format=json&channel=${channel}`)).json()) as EmuMessage[],
    post: async (channel: string, user: string, text: string) =>
      (await (await request.post(`${admin}/messages`, { data: { channel, user, text } })).json()) as {
        ts: string;
      },
    membership: async (channel: string, user: string, join: boolean) => {
      const res = await request.post(`${admin}/channels/${channel}/${join ? 'join' : 'leave'}`, {
        data: { user },
      });
      expect(res.ok(), `${join ? 'join' : 'leave'} ${channel}`).toBe(true);
    },
  };
}

test('an Admin reply into a channel the admin is not in is stopped before sending, with the offer to send as the Bot; the Bot then delivers it', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const ws = await workspace(request);
  const owner = ws.install.installerId;
  // A channel the bot reads (its posts reach Flywheel), not #general; the admin leaves it if they are in it.
  const channel = (await ws.channels()).find(
    (c) =>
      !c.is_im &&
      !c.is_private &&
      c.name !== 'general' &&
      c.members?.includes(ws.install.botUserId) &&
      (c.members?.filter((m) => m !== owner && m !== ws.install.botUserId).length ?? 0) > 0,
  )!;
  expect(channel, 'a public channel with the bot and a member').toBeTruthy();
  const wasIn = channel.members!.includes(owner);
  if (wasIn) await ws.membership(channel.id, owner, false);
  try {
    const author = channel.members!.find((m) => m !== owner && m !== ws.install.botUserId)!;
    const marker = Date.now().toString(36);
    const parent = await ws.post(channel.id, author, `Can someone from the team look at ${marker}?`);

    const demo = await demoCredentials(request);
    await logIn(page, demo.email, demo.password);
    await expect(page).toHaveURL(/\/dashboard\/home$/);
    const post = page.getByTestId('post-card').filter({ hasText: marker });
    // The post reaches Flywheel through Slack's events within moments: open the channel's posts until it is there.
    await expect(async () => {
      await page.goto('/dashboard/actions/posts');
      await page.getByRole('combobox', { name: 'Channel', exact: true }).click();
      await page.getByRole('option', { name: `#${channel.name}`, exact: true }).click();
      await expect(post).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 60_000 });

    await post.getByRole('button', { name: /^Reply to / }).click();
    const reply = page.getByRole('dialog', { name: 'Reply' });
    await reply.getByRole('radio', { name: 'Admin' }).check();
    const text = `On it ${marker} :eyes:`;
    await reply.getByRole('textbox', { name: 'Message' }).click();
    await page.keyboard.type(text);

    // Warned before anything is sent: the admin is not in the channel.
    const warning = reply.getByRole('alert').filter({ hasText: `is not in #${channel.name}` });
    await expect(warning).toBeVisible({ timeout: 15_000 });
    await expect(warning).toContainText(
      'Slack refuses a message from someone who is not a member of the channel.',
    );
    await expect(reply.getByRole('group', { name: 'Preview' })).toContainText(`On it ${marker}`);
    await expectAccessible(page, 'the Reply dialog with the warning', '[role="dialog"]');
    await shootBoth(page, 'reply-admin-not-in-channel');

    // Sent anyway as the admin: the server refuses it before queueing anything; the dialog says so and stays.
    const refused = page.waitForResponse((r) => r.url().includes('/quickaction/replytothread'));
    await reply.getByRole('button', { name: 'Reply', exact: true }).click();
    const answer = await refused;
    expect(answer.status()).toBe(400);
    expect(((await answer.json()) as { code: string }).code).toBe('ADMIN_NOT_IN_CHANNEL');
    await expect(reply).toBeVisible();
    await expect(page.getByText('Failure')).toHaveCount(0);
    expect((await ws.messages(channel.id)).filter((m) => m.text.includes(marker) && m.thread_ts)).toEqual([]);

    // The offer: send as the Bot. It goes, and Slack has the reply in the thread, from the bot.
    await warning.getByRole('button', { name: 'Send as the Bot instead' }).click();
    await expect(reply.getByRole('radio', { name: 'Bot' })).toBeChecked();
    await expect(reply.getByRole('alert')).toHaveCount(0);
    await reply.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(reply).toBeHidden({ timeout: 15_000 });
    // The toast follows the send to its end.
    await expect(page.getByText('Delivered in Slack.')).toBeVisible({ timeout: 30_000 });
    await shootBoth(page, 'reply-sent-toast');
    await expect
      .poll(
        async () =>
          (await ws.messages(channel.id))
            .filter((m) => m.thread_ts === parent.ts && m.text.startsWith(`On it ${marker}`))
            .map((m) => m.user),
        { timeout: 30_000 },
      )
      .toEqual([ws.install.botUserId]);
  } finally {
    if (wasIn) await ws.membership(channel.id, owner, true);
  }
});

test('Members Send Message: the preview, a test to me (a real DM in Slack), then the count to confirm for everyone filtered', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const ws = await workspace(request);
  const owner = ws.install.installerId;
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await page.getByRole('combobox', { name: 'Time filter', exact: true }).click();
  await page.getByRole('option', { name: 'Last 90 days' }).click();
  const rows = page.getByRole('table', { name: 'Members Data' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });

  // Nothing ticked: the send goes to everyone the filters show.
  await page.getByRole('button', { name: 'Send Message' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose Sender' });
  await choose.getByRole('radio', { name: 'Bot' }).check();
  await choose.getByRole('button', { name: 'Next' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message' });
  await expect(send.getByText(/^To the [\d,]+ members? filtered$/)).toBeVisible();
  const marker = Date.now().toString(36);
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(`Welcome to the *spring meetup* ${marker} :tada:`);
  const preview = send.getByRole('group', { name: 'Preview' });
  await expect(preview.getByRole('img', { name: 'tada' })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('spring meetup');
  await expect(preview.getByText('APP')).toBeVisible();
  await expectAccessible(page, 'the Send Message dialog with its preview', '[role="dialog"]');
  await shootBoth(page, 'send-message-preview');

  // A test to me: a DM from the bot to the admin's own Slack user, through the delivery; the dialog stays.
  await send.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByText('Look for it in your DMs in Slack.')).toBeVisible({ timeout: 30_000 });
  await expect(send).toBeVisible();
  await expect
    .poll(
      async () =>
        (await directMessagesTo(request, ws.teamId, owner))
          .filter((m) => m.text.includes(marker))
          .map((m) => m.user),
      { timeout: 30_000 },
    )
    .toEqual([ws.install.botUserId]);
  await shootBoth(page, 'send-message-test-sent');

  // Send: everyone filtered is confirmed with the count first; Back sends nothing.
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: /^Send to [\d,]+ members\?$/ });
  await expect(confirm).toBeVisible({ timeout: 15_000 });
  await expect(confirm).toContainText('one message each');
  await expectAccessible(page, 'the count to confirm', '[role="dialog"]');
  await shootBoth(page, 'send-message-confirm-count');
  await confirm.getByRole('button', { name: 'Back' }).click();
  await expect(confirm).toBeHidden();
  await expect(send).toBeVisible();
});

test('deleting a poll asks first, saying its Slack message goes too; Cancel keeps both', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ws = await workspace(request);
  const channel = (await ws.channels()).find((c) => !c.is_im && !c.is_private && c.name === 'general')!;
  const demo = await demoCredentials(request);
  const login = await request.post('/api/v0/auth/login', { data: demo });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}` };
  const marker = Date.now().toString(36);
  const created = await request.post('/api/v0/poll/createpoll', {
    headers,
    data: {
      team_id: ws.teamId,
      channel_ids: [channel.id],
      poll_question: `Pizza or tacos ${marker}?`,
      options: [
        { emoji: '🍕', emoji_code: 'pizza', value: 'Pizza' },
        { emoji: '🌮', emoji_code: 'taco', value: 'Tacos' },
      ],
      sender: 'bot',
      type: 'instant',
    },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const posted = async () =>
    (await ws.messages(channel.id)).find((m) => m.text.includes(`Pizza or tacos ${marker}`) && !m.deleted);
  await expect.poll(async () => !!(await posted()), { timeout: 30_000 }).toBe(true);

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/polls');
  const row = page.getByRole('table', { name: 'Poll Table' }).locator('tbody tr').filter({ hasText: marker });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await row.getByRole('button', { name: /^Delete poll/ }).click();
  const ask = page.getByRole('dialog', { name: 'Delete poll?' });
  await expect(ask).toContainText(`The poll "Pizza or tacos ${marker}?" will be deleted, with its votes.`);
  await expect(ask).toContainText(`This also deletes the poll's message in Slack (#${channel.name})`);
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'Delete poll?', '[role="dialog"]');
  await shootBoth(page, 'poll-delete-confirm');

  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(row).toHaveCount(1);
  await page.reload();
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  expect(await posted()).toBeTruthy();

  await row.getByRole('button', { name: /^Delete poll/ }).click();
  await page
    .getByRole('dialog', { name: 'Delete poll?' })
    .getByRole('button', { name: 'Delete poll' })
    .click();
  await expect(page.getByText('Poll deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect.poll(async () => !!(await posted()), { timeout: 30_000 }).toBe(false);
});

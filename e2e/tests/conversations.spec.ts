import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoTeamId,
  directMessagesTo,
  emulatorURL,
  logIn,
} from './helpers.ts';

/** Where the screenshots of the new screens go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (what: Page | Locator, name: string) => {
  if (shots)
    await what.screenshot({ path: `${shots}/${name}.png`, ...('goto' in what ? { fullPage: true } : {}) });
};
const expectAccessible = async (page: Page, what: string) =>
  expect(await axeViolations(page), `axe violations on ${what}`).toEqual([]);

type EmuMessage = { ts: string; channel: string; text: string; thread_ts?: string; pinned_to?: string[] };

/** The demo workspace in the emulator: a channel the bot reads, its people, and posting as one of them. */
async function workspace(request: APIRequestContext) {
  const teamId = await demoTeamId(request);
  const admin = `${emulatorURL}/_admin/teams/${teamId}`;
  const install = (await (await request.get(`${admin}/install`)).json()) as {
    botUserId: string;
    installerId: string;
  };
  const members = (await (await request.get(`${admin}/members?format=json`)).json()) as {
    id: string;
    is_bot?: boolean;
    deleted?: boolean;
    real_name?: string;
  }[];
  const people = new Map(
    members
      .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT')
      .map((m) => [m.id, m.real_name ?? m.id]),
  );
  const channels = (await (await request.get(`${admin}/channels`)).json()) as {
    id: string;
    name: string;
    is_im?: boolean;
    is_private?: boolean;
    members?: string[];
  }[];
  const channel = channels.find(
    (c) =>
      !c.is_im && !c.is_private && c.members?.includes(install.botUserId) && (c.members?.length ?? 0) > 5,
  )!;
  const inChannel = channel.members!.filter((id) => people.has(id) && id !== install.installerId);
  return {
    teamId,
    install,
    channel,
    inChannel,
    nameOf: (id: string) => people.get(id)!,
    post: async (user: string, text: string, threadTs?: string) =>
      (await (
        await request.post(`${admin}/messages`, {
          data: { channel: channel.id, user, text, ...(threadTs ? { thread_ts: threadTs } : {}) },
        })
      ).json()) as { ts: string },
    messages: async () =>
      (await (
        await request.get(`${admin}/messages?format=json&channel=${channel.id}`)
      ).json()) as EmuMessage[],
  };
}

test('conversations: find a thread by a word, DM two repliers, reply to a mention (Seen), pin and unpin, summarize and copy', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const ws = await workspace(request);
  const word = `quasar${Date.now().toString(36)}`;
  const [author, replierA, replierB, mentioner] = ws.inChannel as [string, string, string, string];
  const parent = await ws.post(author, `The ${word} rollout plan is ready: who can review it?`);
  await ws.post(replierA, `I will review the ${word} plan today.`, parent.ts);
  await ws.post(replierB, 'Looks good to me, ship it.', parent.ts);
  const mention = await ws.post(
    mentioner,
    `<@${ws.install.installerId}> could you approve the ${word} budget?`,
  );

  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Actions' }).click();
  await expect(page).toHaveURL(/\/dashboard\/actions\/threads$/);
  const threads = page.getByRole('table', { name: 'Threads' });
  await expect(threads.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 });

  // Find the thread by its word (the events reach Flywheel within moments; search again until it is there).
  // Each press of Search asks the server again, also for the same word; the spinner shows for 1.5 s first.
  const results = page.getByLabel('Search results');
  await expect(async () => {
    await page.getByRole('textbox', { name: 'Search threads' }).fill(word);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    // The thread, the reply that says the word and the mention.
    await expect(results.getByTestId('search-hit')).toHaveCount(3, { timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  await shoot(page, 'threads-tab');
  await expectAccessible(page, 'the Threads tab with search results');

  const hit = results.getByTestId('search-hit').filter({ hasText: `${word} rollout plan is ready` });
  await hit.getByRole('button', { name: /^Open thread/ }).click();
  const detail = page.getByRole('dialog', { name: 'Thread details' });
  await expect(detail.getByTestId('# of replies')).toHaveText('2');
  await expect(detail.getByTestId('# of unique people replies')).toHaveText('2');
  const replies = detail.getByRole('table', { name: 'Replies' });
  await replies.getByRole('checkbox', { name: new RegExp(`^Select ${ws.nameOf(replierA)}:`) }).check();
  await replies.getByRole('checkbox', { name: new RegExp(`^Select ${ws.nameOf(replierB)}:`) }).check();
  await shoot(detail, 'thread-detail');
  await expectAccessible(page, 'the thread detail popup');
  await detail.getByRole('button', { name: 'Send DM' }).click();
  const dm = page.getByRole('dialog', { name: 'Send DM' });
  await dm.getByRole('radio', { name: 'Bot' }).check();
  const dmText = `Thanks for the ${word} replies ${Date.now().toString(36)}`;
  await dm.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(dmText);
  await dm.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dm).toBeHidden({ timeout: 15_000 });
  for (const id of [replierA, replierB])
    await expect
      .poll(
        async () => (await directMessagesTo(request, ws.teamId, id)).some((m) => m.text.includes(dmText)),
        {
          timeout: 60_000,
        },
      )
      .toBe(true);
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // Mentions: reply to the mention of the installing admin; the card shows 'Seen' and the reply is in Slack.
  await page.getByRole('tab', { name: 'Mentions' }).click();
  await page.getByRole('textbox', { name: 'Search thread' }).fill(word);
  const card = page.getByTestId('mention-card').filter({ hasText: `could you approve the ${word} budget` });
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toContainText(
    `@${ws.nameOf(ws.install.installerId)} could you approve the ${word} budget?`,
  );
  await shoot(page, 'mentions-tab');
  await expectAccessible(page, 'the Mentions tab');
  await card.getByRole('button', { name: /^Reply to / }).click();
  const reply = page.getByRole('dialog', { name: 'Reply' });
  await reply.getByRole('radio', { name: 'Bot' }).check();
  const replyText = `Approved from Flywheel ${Date.now().toString(36)}`;
  await reply.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(replyText);
  await reply.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(reply).toBeHidden({ timeout: 15_000 });
  await expect(card.getByText('Seen')).toBeVisible();
  await expect(card.getByRole('button', { name: /^Reply to / })).toHaveCount(0);
  await expect
    .poll(
      async () => (await ws.messages()).filter((m) => m.text.includes(replyText)).map((m) => m.thread_ts),
      {
        timeout: 60_000,
      },
    )
    .toEqual([mention.ts]);
  // Still 'Seen' when the list is read again from the server.
  await page.reload();
  await page.getByRole('textbox', { name: 'Search thread' }).fill(word);
  await expect(
    page
      .getByTestId('mention-card')
      .filter({ hasText: `could you approve the ${word} budget` })
      .getByText('Seen'),
  ).toBeVisible({ timeout: 15_000 });

  // Posts: pin and unpin the thread (Slack agrees), then summarize it and copy the summary.
  await page.getByRole('tab', { name: 'Posts' }).click();
  await page.getByRole('combobox', { name: 'Channel', exact: true }).click();
  await page.getByRole('option', { name: `#${ws.channel.name}`, exact: true }).click();
  const post = page.getByTestId('post-card').filter({ hasText: `${word} rollout plan is ready` });
  await expect(post).toBeVisible({ timeout: 30_000 });
  await expect(post).toContainText('2 replies');
  // Slack's permalink format on the emulator's origin (chat.getPermalink agrees: server tests).
  await expect(post.getByRole('link', { name: /in Slack$/ })).toHaveAttribute(
    'href',
    new RegExp(`^http://[^/]+/archives/${ws.channel.id}/p${parent.ts.replace('.', '')}$`),
  );
  await shoot(page, 'posts-tab');
  await expectAccessible(page, 'the Posts tab');
  const pinnedTo = async () => (await ws.messages()).find((m) => m.ts === parent.ts)?.pinned_to ?? [];
  await post.getByRole('button', { name: /^Pin / }).click();
  await expect.poll(pinnedTo, { timeout: 30_000 }).toEqual([ws.channel.id]);
  await post.getByRole('button', { name: /^Unpin / }).click();
  await expect.poll(pinnedTo, { timeout: 30_000 }).toEqual([]);
  await expect(post.getByRole('button', { name: /^Pin / })).toBeVisible();

  await post.getByRole('button', { name: /^Summarize / }).click();
  const summary = page.getByRole('dialog', { name: 'Thread Summary' });
  await expect(summary.getByTestId('thread-summary')).toContainText('Extractive summary', {
    timeout: 15_000,
  });
  await expect(summary.getByTestId('thread-summary')).toContainText(ws.nameOf(replierA));
  await shoot(summary, 'thread-summary');
  await expectAccessible(page, 'the Thread Summary popup');
  await summary.getByRole('button', { name: 'Copy Summary' }).click();
  await expect(summary.getByText('Summary copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Extractive summary');
  await expect(summary.getByText('Summary copied')).toBeHidden({ timeout: 5000 });
});

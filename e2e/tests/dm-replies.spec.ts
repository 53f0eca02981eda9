import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoTeamId,
  emulatorURL,
  logIn,
  membersForWindow,
  selectFirstMembers,
} from './helpers.ts';

/**
 * Issue #31 "Replies to DMs": members answer a bulk DM in Slack (the emulator's message.im events); the receipt
 * shows how many replied and what they wrote within seconds, without a reload, and the member's page shows it too.
 */

type EmuMessage = { ts: string; channel: string; text: string; user?: string; bot_id?: string };
type EmuChannel = { id: string; is_im?: boolean; members?: string[]; user?: string };

/** The DMs the bot sent with `text`, each with the member it went to (from the emulator's own records). */
async function dmsWith(request: APIRequestContext, teamId: string, text: string) {
  const admin = `${emulatorURL}/_admin/teams/${teamId}`;
  const { botUserId } = (await (await request.get(`${admin}/install`)).json()) as { botUserId: string };
  const ims = ((await (await request.get(`${admin}/channels`)).json()) as EmuChannel[]).filter(
    (c) => c.is_im,
  );
  const out: { channel: string; member: string; ts: string }[] = [];
  for (const im of ims) {
    const msgs = (await (
      await request.get(`${admin}/messages?format=json&channel=${im.id}`)
    ).json()) as EmuMessage[];
    const sent = msgs.find((m) => m.text.includes(text));
    const member = (im.members ?? [im.user]).find((u) => u && u !== botUserId);
    if (sent && member) out.push({ channel: im.id, member, ts: sent.ts });
  }
  return out;
}

test('DM replies: members answer a bulk DM in Slack; the receipt counts and lists them within seconds, and the member page shows them', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const demo = await demoCredentials(request);
  const teamId = await demoTeamId(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await membersForWindow(page, 'Last 90 days', 3);
  await selectFirstMembers(page, 2);
  await page.getByRole('button', { name: 'Send Message' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose Sender' });
  await choose.getByRole('radio', { name: 'Bot' }).check();
  await choose.getByRole('button', { name: 'Next' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message' });
  const text = `Which meetup suits you? ${Date.now().toString(36)}`;
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(text);
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden({ timeout: 15_000 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Receipts' }).click();
  const row = page
    .getByRole('table', { name: 'Receipts Data' })
    .locator('tbody tr')
    .filter({ hasText: text });
  await expect(row.locator('td').nth(5)).toHaveText('Processed', { timeout: 60_000 });
  await expect(row.locator('td').nth(6)).toHaveText('0');

  // Two members answer in Slack, one in the DM, one in the message's thread; nobody reloads the page.
  const dms = await dmsWith(request, teamId, text);
  expect(dms).toHaveLength(2);
  const [first, second] = dms as [(typeof dms)[number], (typeof dms)[number]];
  const post = (data: object) =>
    request
      .post(`${emulatorURL}/_admin/teams/${teamId}/messages`, { data })
      .then((r) => expect(r.ok()).toBe(true));
  await post({ channel: first.channel, user: first.member, text: 'Thursday works <b>for me</b>' });
  await post({
    channel: second.channel,
    user: second.member,
    text: 'The online one, please',
    thread_ts: second.ts,
  });

  const repliesButton = row.getByRole('button', { name: /2 replies to receipt \d+/ });
  await expect(repliesButton).toBeVisible({ timeout: 20_000 });
  await repliesButton.click();
  const dialog = page.getByRole('dialog');
  const list = dialog.getByRole('list', { name: /Replies to receipt \d+/ });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  // What a member wrote is text: the markup shows as typed.
  await expect(list.getByText('Thursday works <b>for me</b>')).toBeVisible();
  await expect(list.locator('b')).toHaveCount(0);
  await expect(
    list.getByRole('listitem').filter({ hasText: 'The online one, please' }).getByText('in the thread'),
  ).toBeVisible();
  // axe reads colours as shown: once the dialog's opening transition is over.
  await expect(dialog).toHaveCSS('opacity', '1');
  expect(await axeViolations(page, '[role="dialog"]'), 'axe on the replies dialog').toEqual([]);

  // The member's page, Actions tab: the reply with the send it answers.
  await list.getByRole('listitem').filter({ hasText: 'Thursday works' }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/members/${first.member}$`));
  await page.getByRole('tab', { name: 'Actions' }).click();
  const mine = page.getByRole('list', { name: 'Replies to your messages' });
  // This run's reply, with the send it answers (the same member may have answered an earlier run's send).
  await expect(
    mine.getByRole('listitem').filter({ hasText: 'Thursday works <b>for me</b>' }).filter({ hasText: text }),
  ).toBeVisible({ timeout: 15_000 });
});

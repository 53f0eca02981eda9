import fs from 'node:fs/promises';
import type { APIRequestContext, Download } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  emulatorURL,
  logIn,
  membersForWindow,
  membersRows,
  selectFirstMembers,
} from './helpers.ts';

test('sending: DM 3 checked members as Bot, the receipt reaches Processed with 3 successes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  // The URL changes before the page does (Home stays up while the Members page's code loads): exact names only.
  await membersForWindow(page, 'Last 90 days', 3);
  await selectFirstMembers(page, 3);

  await page.getByRole('button', { name: 'Send Message' }).click();
  const choose = page.getByRole('dialog', { name: 'Choose Sender' });
  await choose.getByRole('radio', { name: 'Bot' }).check();
  await choose.getByRole('button', { name: 'Next' }).click();
  const send = page.getByRole('dialog', { name: 'Send Message' });
  await expect(send.getByText('To 3 selected members')).toBeVisible();
  const text = `Hello from e2e ${Date.now().toString(36)}`;
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(text);
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden({ timeout: 15_000 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Receipts' }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts$/);
  const row = page
    .getByRole('table', { name: 'Receipts Data' })
    .locator('tbody tr')
    .filter({ hasText: text });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  // The page polls while the send runs: the same row reaches Processed.
  await expect(row.locator('td').nth(5)).toHaveText('Processed', { timeout: 60_000 });
  await expect(row.locator('td').nth(2)).toHaveText('3');
  await expect(row.locator('td').nth(3)).toHaveText('3');
  await expect(row.locator('td').nth(4)).toHaveText('0');

  // The bell: an unread notification of this send (the panel reads the list when it opens), leading to its receipt.
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  const told = panel.getByRole('link').filter({ hasText: text });
  await expect(told).toHaveCount(1, { timeout: 15_000 });
  await expect(told).toContainText(`Unread: Sent: ${text}`);
  await expect(told).toContainText('(to 3 members)');
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on the notifications panel').toEqual(
    [],
  );
  await told.click();
  await expect(page).toHaveURL(/\/dashboard\/receipts\?receipt=\d+$/);
  await expect(row).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  await expect(panel.getByRole('link').filter({ hasText: text })).not.toContainText('Unread:');
});

type EmuMessage = {
  ts: string;
  channel: string;
  text: string;
  user?: string;
  username?: string;
  thread_ts?: string;
  pinned_to?: string[];
  reactions?: { name: string; users: string[] }[];
  files?: unknown[];
  blocks?: { type: string }[];
};

/** The demo's emulator: the installed workspace and its ground truth. */
async function emulator(request: APIRequestContext) {
  const state = (await (await request.get(`${emulatorURL}/_admin/state`)).json()) as {
    teams: { id: string; installed: boolean }[];
  };
  const teamId = state.teams.find((t) => t.installed)!.id;
  const get = async <T>(what: string): Promise<T> =>
    (await (await request.get(`${emulatorURL}/_admin/teams/${teamId}/${what}`)).json()) as T;
  return {
    teamId,
    messages: (q = '') => get<EmuMessage[]>(`messages?format=json${q}`),
    botUserId: async () => (await get<{ botUserId: string }>('install')).botUserId,
    members: () => get<{ id: string; profile?: { email?: string } }[]>('members?format=json'),
    channels: () => get<{ id: string; name: string; is_im?: boolean; members?: string[] }[]>('channels'),
  };
}

const csvRows = async (download: Download) =>
  (await fs.readFile((await download.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .slice(1);

test('sending: an image to 3 members, a tag and a channel as Admin and as the named Bot arrives once per recipient; reply, pin, unpin and react reach Slack; the receipt and its CSVs agree', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const emu = await emulator(request);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  // The bot's name for this workspace (Home: Customise Bot).
  const botName = `e2e-${Date.now().toString(36)}`;
  const bot = page.getByRole('region', { name: 'Customise Bot' });
  await bot.getByLabel('Bot name').fill(botName);
  const saved = page.waitForResponse((r) => r.request().method() !== 'GET' && r.url().includes('/alterbot/'));
  await bot.getByRole('button', { name: 'Submit' }).click();
  expect((await saved).ok()).toBe(true);

  // Tag two members (rows 4-5 of the first page), then send to rows 1-3 plus that tag plus a channel.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/\/dashboard\/members$/);
  await membersForWindow(page, 'Last 90 days', 5);
  // The five ids in one read, and each row then found by its member: the list is live (it refetches, and its
  // order by activity can change between two reads), so rows read one at a time once gave a member twice.
  const firstFive = (
    await membersRows(page).evaluateAll((rows) =>
      rows.slice(0, 5).map((r) => r.querySelector('a')?.getAttribute('href')?.split('/').pop() ?? ''),
    )
  ).filter(Boolean);
  expect(new Set(firstFive).size).toBe(5);
  const direct = firstFive.slice(0, 3);
  const tagged = firstFive.slice(3, 5);
  for (const id of tagged)
    await page.locator(`tbody tr:has(a[href$="/${id}"])`).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Add Tag' }).click();
  const addTag = page.getByRole('dialog', { name: 'Add Tag' });
  const tagName = `send${Date.now().toString(36)}`;
  await addTag.getByRole('combobox', { name: 'Tags' }).fill(tagName);
  // The new tag is made first (its id is what 'add tag' sends): wait for it before adding.
  const created = page.waitForResponse((r) => r.url().includes('/tags/createtag') && r.ok());
  await page.getByRole('option', { name: new RegExp(`create tag “${tagName}”`) }).click();
  await created;
  await addTag.getByRole('button', { name: 'add tag' }).click();
  await expect(page.getByText(`Tag ${tagName} added to 2 members`)).toBeVisible();
  await expect(membersRows(page).nth(4)).toBeVisible({ timeout: 30_000 });

  const channel =
    (await emu.channels()).find((c) => !c.is_im && c.name === 'general') ??
    (await emu.channels()).find((c) => !c.is_im)!;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  const send = async (as: 'Admin' | 'Bot', text: string) => {
    for (const id of direct)
      await page.locator(`tbody tr:has(a[href$="/${id}"])`).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Send Message' }).click();
    const choose = page.getByRole('dialog', { name: 'Choose Sender' });
    await choose.getByRole('radio', { name: as }).check();
    await choose.getByRole('button', { name: 'Next' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Message' });
    await expect(dialog.getByText('To 3 selected members')).toBeVisible();
    await dialog.getByLabel('Send Direct Message to tags').first().click();
    await page.getByRole('option', { name: tagName }).click();
    await dialog.getByText('To 3 selected members').click(); // closes the picker's dropdown
    await dialog.getByLabel('Send Message On Channel').first().click();
    await page.getByRole('option', { name: `#${channel.name}`, exact: true }).click();
    await dialog.getByText('To 3 selected members').click(); // closes the picker's dropdown
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await expect(dialog.getByRole('img', { name: 'dot.png', exact: true })).toBeVisible();
    // The preview shows it too, as Slack will under the text.
    await expect(
      dialog.getByRole('group', { name: 'Preview' }).getByRole('img', { name: 'Image 1: dot.png' }),
    ).toBeVisible();
    if (as === 'Admin') expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('textbox', { name: 'Message' }).click();
    await page.keyboard.type(text);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
  };

  /** Messages carrying `text` in the emulator: per DM partner (or channel id for a channel post). */
  const delivered = async (text: string) => {
    const ims = new Map((await emu.channels()).filter((c) => c.is_im).map((c) => [c.id, c.members ?? []]));
    const per = new Map<string, EmuMessage[]>();
    for (const m of await emu.messages()) {
      if (!m.text.includes(text)) continue;
      const pair = ims.get(m.channel);
      const who = pair ? (pair.find((u) => u !== m.user) ?? m.user!) : m.channel;
      per.set(who, [...(per.get(who) ?? []), m]);
    }
    return per;
  };
  const everyone = [...direct, ...tagged, channel.id].sort();

  for (const as of ['Admin', 'Bot'] as const) {
    const text = `Image for everyone from ${as} ${Date.now().toString(36)}`;
    await send(as, text);
    await expect
      .poll(async () => [...(await delivered(text)).keys()].sort(), { timeout: 90_000 })
      .toEqual(everyone);
    const per = await delivered(text);
    for (const [who, msgs] of per) {
      expect(msgs, `messages to ${who}`).toHaveLength(1);
      const m = msgs[0]!;
      expect(m.blocks?.some((b) => b.type === 'image') || (m.files?.length ?? 0) > 0).toBe(true);
      if (as === 'Bot') expect(m.username).toBe(botName);
      else expect(m.username).toBeUndefined();
    }

    // The receipt: 6 recipients (3 members, 2 tagged, 1 channel), all sent; its CSVs list them.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Receipts' }).click();
    const row = page
      .getByRole('table', { name: 'Receipts Data' })
      .locator('tbody tr')
      .filter({ hasText: text });
    await expect(row.locator('td').nth(5)).toHaveText('Processed', { timeout: 60_000 });
    await expect(row.locator('td').nth(2)).toHaveText(String(everyone.length));
    await expect(row.locator('td').nth(3)).toHaveText(String(everyone.length));
    await expect(row.locator('td').nth(4)).toHaveText('0');
    if (as === 'Admin') expect(await axeViolations(page, 'main')).toEqual([]);
    const [total] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /^Download total recipients/ }).click(),
    ]);
    const totalRows = await csvRows(total);
    expect(totalRows).toHaveLength(everyone.length);
    const emails = new Map((await emu.members()).map((m) => [m.id, m.profile?.email ?? '']));
    for (const id of [...direct, ...tagged])
      expect(
        totalRows.filter((l) => l.includes(`"${emails.get(id)}"`)),
        id,
      ).toHaveLength(1);
    expect(totalRows.filter((l) => l.includes(channel.name) && l.includes('"Channel"'))).toHaveLength(1);
    expect(totalRows.every((l) => l.includes('"Sent"'))).toBe(true);
    const [ok] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: /^Download successful recipients/ }).click(),
    ]);
    expect(await csvRows(ok)).toHaveLength(everyone.length);
    await expect(row.getByRole('button', { name: /^Download failed recipients/ })).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await expect(membersRows(page).nth(2)).toBeVisible({ timeout: 30_000 });
  }

  // Reply, pin, unpin and react on a message of a member's Actions tab (its last 7 days): a plain top-level
  // message from the emulator's truth, found on the page by its text.
  const weekAgo = Date.now() / 1000 - 6 * 86_400;
  const channels = new Map((await emu.channels()).map((c) => [c.id, c]));
  const plain = (await emu.messages(`&oldest=${Math.floor(weekAgo)}`)).filter(
    (m) =>
      m.user &&
      !m.username &&
      (!m.thread_ts || m.thread_ts === m.ts) &&
      !(m as { subtype?: string }).subtype &&
      m.text.length > 12 &&
      !/[<@#:&*_~`]/.test(m.text) &&
      channels.get(m.channel) &&
      !channels.get(m.channel)!.is_im &&
      // Not pinned yet: its row offers Pin (and, once pinned, Unpin).
      !(m as { pinned_to?: string[] }).pinned_to?.length,
  );
  expect(plain.length).toBeGreaterThan(0);
  const picked = plain[plain.length - 1]!;
  const target = {
    ts: picked.ts,
    channel_id: picked.channel,
    channel_name: channels.get(picked.channel)!.name,
    content: picked.text,
  };
  await page.goto(`/dashboard/members/${picked.user}`);
  await page.getByRole('tab', { name: 'Actions' }).click();
  const where = `the message in #${target.channel_name}`;
  const onRow = page
    .locator('tbody tr')
    .filter({ hasText: target.content.slice(0, 40) })
    .filter({ has: page.getByRole('button', { name: `Reply to ${where}`, exact: true }) })
    .first();
  const truthOf = async () =>
    (await emu.messages(`&channel=${target.channel_id}`)).find((m) => m.ts === target.ts)!;

  await onRow.getByRole('button', { name: `Pin ${where}`, exact: true }).click();
  await expect
    .poll(async () => (await truthOf()).pinned_to ?? [], { timeout: 30_000 })
    .toEqual([target.channel_id]);
  // Pinned now: the row offers Unpin instead of Pin.
  await expect(onRow.getByRole('button', { name: `Pin ${where}`, exact: true })).toHaveCount(0);
  await onRow.getByRole('button', { name: `Unpin ${where}`, exact: true }).click();
  await expect.poll(async () => (await truthOf()).pinned_to ?? [], { timeout: 30_000 }).toEqual([]);
  await onRow.getByRole('button', { name: `React to ${where}`, exact: true }).click();
  const botUser = await emu.botUserId();
  await expect
    .poll(
      async () =>
        (await truthOf()).reactions?.find((r) => r.name === 'thumbsup')?.users.includes(botUser) ?? false,
      { timeout: 30_000 },
    )
    .toBe(true);

  await onRow.getByRole('button', { name: `Reply to ${where}`, exact: true }).click();
  const reply = page.getByRole('dialog', { name: /reply/i });
  await reply.getByRole('radio', { name: 'Bot' }).check();
  const replyText = `A reply from e2e ${Date.now().toString(36)}`;
  await reply.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(replyText);
  await reply.getByRole('button', { name: /^(Send|Reply)$/ }).click();
  await expect
    .poll(
      async () =>
        (await emu.messages(`&channel=${target.channel_id}`))
          .filter((m) => m.text.includes(replyText))
          .map((m) => m.thread_ts),
      { timeout: 60_000 },
    )
    .toEqual([target.ts]);
});

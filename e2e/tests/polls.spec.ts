import fs from 'node:fs/promises';
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

type EmuMessage = { ts: string; channel: string; text: string; deleted?: boolean; subtype?: string };
type EmuMember = { id: string; is_bot?: boolean; deleted?: boolean; profile?: { email?: string } };
type EmuChannel = {
  id: string;
  name: string;
  is_im?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  members?: string[];
};

/** The demo's emulator: ground truth, and members acting as they would in Slack (the member page's API). */
async function emulator(request: APIRequestContext) {
  const teamId = await demoTeamId(request);
  const get = async <T>(what: string): Promise<T> =>
    (await (await request.get(`${emulatorURL}/_admin/teams/${teamId}/${what}`)).json()) as T;
  return {
    teamId,
    messages: (channel: string) => get<EmuMessage[]>(`messages?format=json&channel=${channel}`),
    members: () => get<EmuMember[]>('members?format=json'),
    channels: () => get<EmuChannel[]>('channels'),
    botUserId: async () => (await get<{ botUserId: string }>('install')).botUserId,
    /** A member toggles a reaction on a message (adds it, or removes their own). */
    react: async (user: string, channel: string, ts: string, name: string) => {
      const res = await request.post(`${emulatorURL}/_ui/api/react`, {
        data: { team: teamId, user, channel, ts, name },
      });
      expect(res.ok()).toBe(true);
    },
  };
}

test('polls: create a poll in the UI; members vote with reactions (one changes, one removes, a bot is ignored); the details popup, PollDetails.csv and the Slack message agree; DM a voter, send another a form; delete removes the message', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const marker = Date.now().toString(36);
  const question = `Which day for the meetup ${marker}?`;
  const demo = await demoCredentials(request);
  const emu = await emulator(request);
  const bot = await emu.botUserId();
  // A public channel the app's bot is in (it joins them just after the install), with three people to vote.
  const all = await emu.members();
  const people = new Set(all.filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT').map((m) => m.id));
  let channel: EmuChannel | undefined;
  await expect
    .poll(
      async () => {
        channel = (await emu.channels()).find(
          (c) =>
            !c.is_im &&
            !c.is_private &&
            !c.is_archived &&
            c.members?.includes(bot) &&
            c.members.filter((m) => people.has(m)).length >= 3,
        );
        return channel?.id;
      },
      { message: 'a channel with the bot and three members', timeout: 60_000 },
    )
    .toBeTruthy();
  const [a, b, c] = channel!.members!.filter((m) => people.has(m)) as [string, string, string];
  const otherBot = all.find((m) => m.is_bot && !m.deleted && m.id !== bot)?.id ?? bot;

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/polls');
  const table = page.getByRole('table', { name: 'Poll Table' });
  await expect(table).toBeVisible();
  // The demo seeds an example poll (demo.spec.ts); this test's poll is found by its own question.
  expect(await axeViolations(page), 'axe violations on the Polls tab').toEqual([]);

  // Create Poll: step 1 needs a channel and a sender.
  await page.getByRole('button', { name: 'Create Poll' }).click();
  const start = page.getByRole('dialog', { name: 'Create Poll' });
  await expect(start.getByRole('button', { name: 'Next' })).toBeDisabled();
  await start.getByLabel('Channels', { exact: true }).click();
  await page.getByRole('option', { name: `#${channel!.name}`, exact: true }).click();
  await page.keyboard.press('Escape');
  await start.getByRole('radio', { name: 'Bot' }).check();
  await shoot(start, 'poll-create-step1');
  await start.getByRole('button', { name: 'Next' }).click();
  const step2 = page.getByRole('dialog', { name: 'Poll Question and Options' });
  await step2.getByRole('textbox', { name: 'Poll question' }).click();
  await page.keyboard.type(question);
  const options: [string, string][] = [
    ['thumbsup', 'Tuesday'],
    ['tada', 'Wednesday'],
    ['rocket', 'Thursday'],
  ];
  // An option without its emoji: the product's text, nothing created.
  await step2.getByRole('textbox', { name: 'Option 1' }).fill('Tuesday');
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(step2.getByText('fill all options with emoji and their value')).toBeVisible();
  for (const [i, [emoji, value]] of options.entries()) {
    if (i > 0) await step2.getByRole('button', { name: 'Add option' }).click();
    await step2.getByRole('button', { name: `Choose an emoji for option ${i + 1}` }).click();
    await page.getByRole('button', { name: `:${emoji}:`, exact: true }).click();
    await step2.getByRole('textbox', { name: `Option ${i + 1}` }).fill(value);
  }
  await expect(step2.getByText('fill all options with emoji and their value')).toBeHidden();
  await expect(step2.getByLabel(/End time/)).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  await shoot(step2, 'poll-create-step2');
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Poll created successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = table.locator('tbody tr').filter({ hasText: question });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Active')).toBeVisible();

  // The poll message in Slack, posted by the delivery engine.
  let posted: EmuMessage | undefined;
  await expect
    .poll(
      async () => {
        posted = (await emu.messages(channel!.id)).find((m) => m.text.includes(question));
        return posted?.ts;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  const ts = posted!.ts;
  expect(posted!.text).toContain(':thumbsup: *Tuesday*');

  // Three members vote, one changes, one removes, a bot reacts, someone adds an emoji that is no option.
  await emu.react(a, channel!.id, ts, 'thumbsup');
  await emu.react(b, channel!.id, ts, 'tada');
  await emu.react(c, channel!.id, ts, 'thumbsup');
  await emu.react(a, channel!.id, ts, 'rocket'); // a changes to Thursday
  await emu.react(b, channel!.id, ts, 'tada'); // b removes their vote
  await emu.react(otherBot, channel!.id, ts, 'thumbsup'); // a bot: not a vote
  await emu.react(c, channel!.id, ts, 'heart'); // not an option

  // The Slack message shows the counts (updated live, coalesced).
  const slackText = async () => (await emu.messages(channel!.id)).find((m) => m.ts === ts)?.text ?? '';
  // (the votes arrive one by one: wait for the last state, not an intermediate one with 2 votes)
  const final = [
    /:thumbsup: \*Tuesday\*.* 1 vote \(50%\)/,
    /:tada: \*Wednesday\*.* 0 votes \(0%\)/,
    /:rocket: \*Thursday\*.* 1 vote \(50%\)/,
    /2 votes so far/,
  ];
  await expect
    .poll(
      async () => {
        const text = await slackText();
        return final.filter((re) => re.test(text)).length;
      },
      { timeout: 30_000 },
    )
    .toBe(final.length);

  // The details popup: the pie chart, the options with their counts, the voters.
  await row.getByRole('button', { name: /^Details of poll/ }).click();
  const details = page.getByRole('dialog', { name: 'Poll Details' });
  const optionsTable = details.getByRole('table', { name: 'Poll options' });
  const count = (value: string) =>
    optionsTable.locator('tbody tr').filter({ hasText: value }).locator('td').nth(2);
  await expect(count('Tuesday')).toHaveText('1', { timeout: 15_000 });
  await expect(count('Wednesday')).toHaveText('0');
  await expect(count('Thursday')).toHaveText('1');
  await expect(details.getByTestId('poll-pie')).toBeVisible();
  const voters = details.getByRole('table', { name: 'Poll voters' }).locator('tbody tr');
  await expect(voters).toHaveCount(2);
  await expect(voters.filter({ hasText: 'Thursday' })).toHaveCount(1);
  await expect(voters.filter({ hasText: 'Tuesday' })).toHaveCount(1);
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Poll Details').toEqual([]);
  await shoot(details, 'poll-details');

  // PollDetails.csv: BOM, header email,value,name, one row per vote.
  const download = page.waitForEvent('download');
  await details.getByRole('button', { name: 'Export Details' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('PollDetails.csv');
  const csv = await fs.readFile((await file.path())!, 'utf8');
  expect(csv.startsWith('\uFEFF"email","value","name"')).toBe(true);
  const email = (id: string) => all.find((m) => m.id === id)?.profile?.email ?? '';
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .slice(1);
  expect(lines).toHaveLength(2);
  expect(lines).toEqual(
    expect.arrayContaining([
      expect.stringMatching(new RegExp(`^"${email(a)}","Thursday",`)),
      expect.stringMatching(new RegExp(`^"${email(c)}","Tuesday",`)),
    ]),
  );

  // Send DM to the selected voters.
  await voters.filter({ hasText: 'Thursday' }).getByRole('checkbox').check();
  await details.getByRole('button', { name: 'Send DM' }).click();
  const send = page.getByRole('dialog', { name: 'Send DM' });
  await send.getByRole('radio', { name: 'Bot' }).check();
  await send.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(`Thanks for voting ${marker}`);
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(send).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(
      async () =>
        (await directMessagesTo(request, emu.teamId, a)).filter((m) => m.text.includes(marker)).length,
      {
        timeout: 30_000,
      },
    )
    .toBe(1);

  // Send Form to another selected voter: a form (made through the API, scheduled far ahead so it sends nothing
  // itself) chosen in the popup; the voter gets its message with the button that opens the Slack modal.
  const login = await request.post('/api/v0/auth/login', {
    data: { email: demo.email, password: demo.password },
  });
  const formName = `Poll pulse ${marker}`;
  const created = await request.post('/api/v0/actions/createform', {
    headers: { authorization: `Bearer ${(await login.json()).token as string}` },
    data: {
      team_id: emu.teamId,
      form_title: formName,
      form_description: 'How did the vote go?',
      sender: 'bot',
      dms: { members: [b], tags: [], channels: [] },
      post_at: { date: '01/01/2099', time: '09:00' },
      questions: [{ question: 'Anything to add?', type: 'shortDesc' }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await voters.filter({ hasText: 'Tuesday' }).getByRole('checkbox').check();
  await details.getByRole('button', { name: 'Send Form' }).click();
  const sendForm = page.getByRole('dialog', { name: 'Send Form' });
  await expect(sendForm.getByText(/^To 1 member: /)).toBeVisible();
  await sendForm.getByRole('combobox', { name: 'Form' }).fill(formName);
  await page.getByRole('option', { name: formName }).click();
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Send Form').toEqual([]);
  await shoot(sendForm, 'poll-send-form');
  await sendForm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Form sent successfully')).toBeVisible();
  await expect(sendForm).toBeHidden();
  await expect(details.getByRole('button', { name: 'Send Form' })).toBeDisabled();
  const formMessages = async () =>
    (await directMessagesTo(request, emu.teamId, c)).filter((m) => m.text.includes(formName));
  await expect.poll(async () => (await formMessages()).length, { timeout: 30_000 }).toBe(1);
  expect(JSON.stringify((await formMessages())[0])).toContain('Fill out the form');

  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(details).toBeHidden();

  // Delete asks first, saying the Slack message goes too; Cancel keeps the poll and its message.
  await row.getByRole('button', { name: /^Delete poll/ }).click();
  const ask = page.getByRole('dialog', { name: 'Delete poll?' });
  await expect(ask).toContainText("This also deletes the poll's message in Slack");
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Delete poll?').toEqual([]);
  await shoot(page, 'poll-delete-confirm');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(row).toHaveCount(1);
  expect((await emu.messages(channel!.id)).some((m) => m.ts === ts && !m.deleted && !m.subtype)).toBe(true);
  // Delete: the row goes, and the Slack message is removed (chat.delete).
  await row.getByRole('button', { name: /^Delete poll/ }).click();
  await ask.getByRole('button', { name: 'Delete poll' }).click();
  await expect(page.getByText('Poll deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect
    .poll(
      async () => (await emu.messages(channel!.id)).some((m) => m.ts === ts && !m.deleted && !m.subtype),
      {
        timeout: 30_000,
      },
    )
    .toBe(false);
});

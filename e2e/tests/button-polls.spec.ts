import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, demoTeamId, emulatorURL, logIn } from './helpers.ts';

type Button = { action_id: string; value?: string; text: { text: string } };
type EmuMessage = {
  ts: string;
  channel: string;
  text: string;
  blocks?: { type: string; elements?: Button[] }[];
};
type EmuMember = {
  id: string;
  is_bot?: boolean;
  deleted?: boolean;
  real_name?: string;
  profile?: { email?: string };
};
type EmuChannel = {
  id: string;
  name: string;
  is_im?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  members?: string[];
};

const buttonsOf = (m: EmuMessage | undefined): Button[] =>
  (m?.blocks ?? []).filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);

/** The demo's emulator: ground truth, and members pressing buttons and submitting modals as Slack's client does. */
async function emulator(request: APIRequestContext) {
  const teamId = await demoTeamId(request);
  const get = async <T>(what: string): Promise<T> =>
    (await (await request.get(`${emulatorURL}/_admin/teams/${teamId}/${what}`)).json()) as T;
  const ui = async (route: string, data: Record<string, unknown>) => {
    const res = await request.post(`${emulatorURL}/_ui/api/${route}`, { data: { team: teamId, ...data } });
    expect(res.ok(), `${route}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  return {
    teamId,
    messages: (channel: string) => get<EmuMessage[]>(`messages?format=json&channel=${channel}`),
    members: () => get<EmuMember[]>('members?format=json'),
    channels: () => get<EmuChannel[]>('channels'),
    botUserId: async () => (await get<{ botUserId: string }>('install')).botUserId,
    /** A member presses a button of a message (block_actions to the app, with a trigger_id). */
    press: async (user: string, channel: string, ts: string, actionId: string) => {
      const result = await ui('action', { user, channel, ts, action_id: actionId });
      expect(result.status, JSON.stringify(result)).toBe(200);
    },
    /** The modal a member sees now, if any. */
    surface: async (user: string) =>
      (await ui('surfaces', { user })) as { view: { id: string; title: { text: string } } | null },
    submit: (user: string, viewId: string, values: object) =>
      ui('view-submit', { user, view_id: viewId, values: JSON.stringify(values) }),
    ephemerals: async (user: string, channel: string) =>
      (await ui('ephemerals', { user, channel })) as { text: string }[],
  };
}

test('button polls: an anonymous multiple-choice poll made in the app; two members vote and one adds an option in Slack; Poll Details shows the counts and no names', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const marker = Date.now().toString(36);
  const question = `Which talks should we host ${marker}?`;
  const demo = await demoCredentials(request);
  const emu = await emulator(request);
  const bot = await emu.botUserId();
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
            c.members.filter((m) => people.has(m)).length >= 2,
        );
        return channel?.id;
      },
      { message: 'a channel with the bot and two members', timeout: 60_000 },
    )
    .toBeTruthy();
  const [a, b] = channel!.members!.filter((m) => people.has(m)) as [string, string];

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/polls');
  const table = page.getByRole('table', { name: 'Poll Table' });
  await expect(table).toBeVisible();

  // Create Poll: Voting: Buttons, anonymous, multiple choice up to 2, voters may add options.
  await page.getByRole('button', { name: 'Create Poll' }).click();
  const start = page.getByRole('dialog', { name: 'Create Poll' });
  await start.getByLabel('Channels', { exact: true }).click();
  await page.getByRole('option', { name: `#${channel!.name}`, exact: true }).click();
  await page.keyboard.press('Escape');
  await start.getByRole('radio', { name: 'Bot' }).check();
  await start.getByText('Buttons', { exact: true }).click();
  await start.getByRole('switch', { name: /Anonymous/ }).check({ force: true });
  await start.getByRole('switch', { name: /Multiple choice/ }).check({ force: true });
  await start.getByRole('textbox', { name: /Max choices/ }).fill('2');
  await start.getByRole('switch', { name: /Voters may add an option/ }).check({ force: true });
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on the Voting step').toEqual([]);
  await start.getByRole('button', { name: 'Next' }).click();
  const step2 = page.getByRole('dialog', { name: 'Poll Question and Options' });
  await step2.getByRole('textbox', { name: 'Poll question' }).click();
  await page.keyboard.type(question);
  for (const [i, value] of ['Testing', 'Design', 'Security'].entries()) {
    if (i > 0) await step2.getByRole('button', { name: 'Add option' }).click();
    await step2.getByRole('textbox', { name: `Option ${i + 1}` }).fill(value);
  }
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Poll created successfully')).toBeVisible();
  const row = table.locator('tbody tr').filter({ hasText: question });
  await expect(row).toHaveCount(1);

  // The message in Slack with one button per option and "Add an option".
  let posted: EmuMessage | undefined;
  await expect
    .poll(
      async () => {
        posted = (await emu.messages(channel!.id)).find((m) => m.text.includes(question));
        return buttonsOf(posted).length;
      },
      { timeout: 30_000 },
    )
    .toBe(4);
  const ts = posted!.ts;
  const vote = (option: number) => `flywheel_poll_vote_${option}`;

  // a: Testing and Design, then a third (refused: 2 at most, told only to a); b: Design.
  await emu.press(a, channel!.id, ts, vote(0));
  await emu.press(a, channel!.id, ts, vote(1));
  await emu.press(a, channel!.id, ts, vote(2));
  expect((await emu.ephemerals(a, channel!.id)).at(-1)?.text).toMatch(/at most 2 options/);
  await emu.press(b, channel!.id, ts, vote(1));
  // b adds an option through the modal, then votes for it.
  await emu.press(b, channel!.id, ts, 'flywheel_poll_add');
  const modal = (await emu.surface(b)).view;
  expect(modal?.title.text).toBe('Add an option');
  await emu.submit(b, modal!.id, { option: { value: { value: 'Accessibility' } } });
  await expect
    .poll(async () => buttonsOf((await emu.messages(channel!.id)).find((m) => m.ts === ts)).length, {
      timeout: 30_000,
    })
    .toBe(5);
  await emu.press(b, channel!.id, ts, vote(3));
  // Counts are live on the buttons.
  await expect
    .poll(
      async () =>
        buttonsOf((await emu.messages(channel!.id)).find((m) => m.ts === ts))
          .map((x) => x.text.text)
          .join('|'),
      { timeout: 30_000 },
    )
    .toBe('Testing (1)|Design (2)|Security (0)|Accessibility (1)|Add an option');

  // Poll Details: the counts as bars, no voters, the anonymity line; no name or e-mail of a voter anywhere.
  await row.getByRole('button', { name: /^Details of poll/ }).click();
  const details = page.getByRole('dialog', { name: 'Poll Details' });
  const optionsTable = details.getByRole('table', { name: 'Poll options' });
  const count = (value: string) =>
    optionsTable.locator('tbody tr').filter({ hasText: value }).locator('td').nth(2);
  await expect(count('Design')).toHaveText('2', { timeout: 15_000 });
  await expect(count('Testing')).toHaveText('1');
  await expect(count('Security')).toHaveText('0');
  await expect(count('Accessibility')).toHaveText('1');
  await expect(details.getByTestId('poll-bars')).toBeVisible();
  await expect(details.getByText('Anonymous — votes are counted without names')).toBeVisible();
  await expect(details.getByRole('table', { name: 'Poll voters' })).toHaveCount(0);
  const shown = await details.innerText();
  for (const m of all.filter((x) => x.id === a || x.id === b))
    for (const s of [m.id, m.real_name, m.profile?.email].filter((x): x is string => !!x && x.length > 3))
      expect(shown).not.toContain(s);
  expect(await axeViolations(page, '[role="dialog"]'), 'axe violations on Poll Details').toEqual([]);

  // Close early: the message loses its buttons; a press is refused with a notice. Reopen brings them back.
  await details.getByRole('button', { name: 'Close poll' }).click();
  await expect(details.getByRole('button', { name: 'Reopen poll' })).toBeVisible();
  await expect
    .poll(async () => (await emu.messages(channel!.id)).find((m) => m.ts === ts)?.text ?? '', {
      timeout: 30_000,
    })
    .toContain('This poll is closed');
  expect(buttonsOf((await emu.messages(channel!.id)).find((m) => m.ts === ts))).toEqual([]);
  await details.getByRole('button', { name: 'Reopen poll' }).click();
  await expect(details.getByRole('button', { name: 'Close poll' })).toBeVisible();
  await expect
    .poll(async () => buttonsOf((await emu.messages(channel!.id)).find((m) => m.ts === ts)).length, {
      timeout: 30_000,
    })
    .toBe(5);
});

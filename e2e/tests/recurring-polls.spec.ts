import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, demoTeamId, emulatorURL, logIn } from './helpers.ts';

type EmuChannel = {
  id: string;
  name: string;
  is_im?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  members?: string[];
};

async function botChannel(request: APIRequestContext): Promise<EmuChannel> {
  const teamId = await demoTeamId(request);
  const get = async <T>(what: string): Promise<T> =>
    (await (await request.get(`${emulatorURL}/_admin/teams/${teamId}/${what}`)).json()) as T;
  const bot = (await get<{ botUserId: string }>('install')).botUserId;
  let found: EmuChannel | undefined;
  await expect
    .poll(
      async () => {
        found = (await get<EmuChannel[]>('channels')).find(
          (c) => !c.is_im && !c.is_private && !c.is_archived && c.members?.includes(bot),
        );
        return found?.id;
      },
      { message: 'a channel with the bot', timeout: 60_000 },
    )
    .toBeTruthy();
  return found!;
}

test('recurring polls: made in the wizard (Weekly at a time, open for some hours), listed with their schedule and next run; deleting stops them; axe clean', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const marker = Date.now().toString(36);
  const question = `Standup or async ${marker}?`;
  const demo = await demoCredentials(request);
  const channel = await botChannel(request);

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/polls');
  await expect(page.getByRole('table', { name: 'Poll Table' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Poll' }).click();
  const start = page.getByRole('dialog', { name: 'Create Poll' });
  await start.getByLabel('Channels', { exact: true }).click();
  await page.getByRole('option', { name: `#${channel.name}`, exact: true }).click();
  await page.keyboard.press('Escape');
  await start.getByRole('radio', { name: 'Bot' }).check();
  await start.getByText('Recurring', { exact: true }).click();
  await start.getByRole('button', { name: 'Next' }).click();
  await expect(start.getByText('Choose how often, the time and, for a weekly poll, its days')).toBeVisible();
  await start.getByLabel('Frequency', { exact: true }).click();
  await page.getByRole('option', { name: 'Weekly', exact: true }).click();
  await start.getByText('Mon', { exact: true }).click();
  await start.getByText('Thu', { exact: true }).click();
  await start.getByLabel(/^Time/).fill('09:30');
  expect(await axeViolations(page), 'axe on the wizard with Recurring').toEqual([]);
  await start.getByRole('button', { name: 'Next' }).click();

  const step2 = page.getByRole('dialog', { name: 'Poll Question and Options' });
  await step2.getByRole('textbox', { name: 'Poll question' }).click();
  await page.keyboard.type(question);
  await step2.getByRole('button', { name: 'Choose an emoji for option 1' }).click();
  await page.getByRole('button', { name: ':thumbsup:', exact: true }).click();
  await step2.getByRole('textbox', { name: 'Option 1' }).fill('Standup');
  await expect(step2.getByLabel(/End time/)).toHaveCount(0);
  await step2.getByLabel(/Open for/).fill('48');
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Recurring poll created successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const recurring = page.getByRole('table', { name: 'Recurring Polls' });
  const row = recurring.locator('tbody tr').filter({ hasText: question });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Weekly (mon, thurs) at 09:30');
  await expect(row).toContainText('open 48 h');
  await expect(row).toContainText('09:30');
  expect(await axeViolations(page), 'axe on the Polls tab with recurring polls').toEqual([]);

  await row.getByRole('button', { name: /polls posted by recurring poll/ }).click();
  const posted = page.getByRole('dialog', { name: /^Polls posted:/ });
  await expect(posted.getByText(/Nothing posted yet: the first poll goes out/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(posted).toBeHidden();

  await row.getByRole('button', { name: /^Delete recurring poll/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete recurring poll?' });
  await expect(confirm).toContainText('No more polls will be posted.');
  await confirm.getByRole('button', { name: 'Delete recurring poll' }).click();
  await expect(page.getByText('Recurring poll deleted: no more polls will be posted')).toBeVisible();
  await expect(row).toHaveCount(0);
});

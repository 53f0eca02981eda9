import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoCredentials, demoTeamId, logIn } from './helpers.ts';

/** Where the screenshots go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const rows = (table: Locator, text: string) => table.locator('tbody tr').filter({ hasText: text });
const search = (page: Page, label: string, text: string) =>
  page.getByRole('textbox', { name: label, exact: true }).fill(text);

/**
 * The demo seeds its actions once its history import is done, in the background: wait for the last of them (the
 * workflow fired by three channel joins) through the API, as the Workflows page would list it.
 */
async function seeded(request: APIRequestContext, teamId: string) {
  const demo = await demoCredentials(request);
  const login = await request.post('/api/v0/auth/login', {
    data: { email: demo.email, password: demo.password },
  });
  const headers = { authorization: `Bearer ${(await login.json()).token as string}` };
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v0/workflows/getworkflows/${teamId}`, { headers });
        const list = (await res.json()).data as { workflow_name: string; triggered: number }[];
        return list.find((w) => w.workflow_name.startsWith('Welcome to #'))?.triggered ?? 0;
      },
      { message: 'the demo seed', timeout: 120_000 },
    )
    .toBe(3);
}

test("a newcomer opens the demo's examples: a poll with votes, a weekly form with responses, the welcome automation, a weekly schedule, a workflow with history, receipts with one failure", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const teamId = await demoTeamId(request);
  await seeded(request, teamId);
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);

  // Polls: an active poll in #general with its votes.
  // (Other specs add their own rows: each list is searched, as a person with a long list does.)
  await page.goto('/dashboard/actions/polls');
  await search(page, 'Search polls', 'next community meetup');
  const poll = rows(
    page.getByRole('table', { name: 'Poll Table' }),
    'What should our next community meetup be about?',
  );
  await expect(poll).toHaveCount(1);
  await expect(poll.getByText('Active')).toBeVisible();
  await poll.getByRole('button', { name: /^Details of poll/ }).click();
  const details = page.getByRole('dialog', { name: 'Poll Details' });
  const options = details.getByRole('table', { name: 'Poll options' });
  const count = (value: string) => rows(options, value).locator('td').nth(2);
  await expect(count('Shipping faster')).toHaveText('4');
  await expect(count('Community analytics')).toHaveText('2');
  await expect(count('Design systems')).toHaveText('1');
  await expect(details.getByRole('table', { name: 'Poll voters' }).locator('tbody tr')).toHaveCount(7);
  await shoot(page, 'demo-poll-details');
  await details.getByRole('button', { name: 'Close' }).first().click();

  // Forms: the weekly check-in, with this week's three responses on its instance page.
  await page.goto('/dashboard/actions/forms');
  await search(page, 'Search forms', 'Weekly check-in');
  const form = rows(page.getByRole('table', { name: 'Form Table' }), 'Weekly check-in');
  await expect(form).toHaveCount(1);
  await expect(form.getByText('Weekly', { exact: true })).toBeVisible();
  await form.getByRole('button', { name: / responses? for / }).click();
  const popup = page.getByRole('dialog', { name: 'Weekly check-in: instances' });
  const instances = popup.getByRole('table', { name: 'Form Instances' });
  await expect(instances.locator('tbody tr')).toHaveCount(1);
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    popup.getByRole('link', { name: /^Select / }).click(),
  ]);
  const responses = tab.getByRole('table', { name: 'Form responses' });
  // A new tab loads the whole app before its first call: on a busy machine that is more than the 10 s default.
  await expect(responses.getByRole('columnheader', { name: 'How was your week?' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(responses.locator('tbody tr')).toHaveCount(3);
  await expect(rows(responses, 'Planning the spring meetup')).toContainText('Good');
  await tab.close();

  // Automate and Schedule.
  await page.goto('/dashboard/actions/automate');
  await search(page, 'Search triggers', 'Welcome aboard');
  const welcome = rows(page.getByRole('table', { name: 'Triggers' }), 'Welcome aboard!');
  await expect(welcome).toHaveCount(1);
  await expect(welcome.getByText('New member', { exact: true })).toBeVisible();
  await page.goto('/dashboard/actions/schedule');
  await search(page, 'Search schedules', 'Weekly kickoff');
  const kickoff = rows(page.getByRole('table', { name: 'Schedule Table' }), 'Weekly kickoff');
  await expect(kickoff).toHaveCount(1);
  await expect(kickoff.locator('td').nth(3)).toHaveText('Weekly');
  await expect(kickoff.locator('td').nth(4)).toHaveText('09:00');
  await expect(kickoff.locator('td').nth(5)).toHaveText('Mon');

  // Workflows: the Channel Join workflow and the three members it fired for.
  await page.goto('/dashboard/workflows');
  const workflow = rows(page.getByRole('table', { name: 'Workflows' }), 'Welcome to #');
  await expect(workflow).toHaveCount(1);
  await expect(workflow.getByText('Channel Join')).toBeVisible();
  await workflow.getByRole('button', { name: /^View details of / }).click();
  await page
    .getByRole('dialog', { name: 'Workflow Details' })
    .getByRole('link', { name: 'Trigger details' })
    .click();
  await expect(page.getByRole('heading', { name: /^Trigger details for the workflow/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Trigger details' }).locator('tbody tr')).toHaveCount(3);

  // Receipts: the reminder reached three members and failed for the one who has left Slack.
  await page.goto('/dashboard/receipts');
  await search(page, 'Search receipts', 'Reminder: our community call');
  const reminder = rows(page.getByRole('table', { name: 'Receipts Data' }), 'Reminder: our community call');
  await expect(reminder).toHaveCount(1);
  await expect(reminder.locator('td').nth(2)).toHaveText('4');
  await expect(reminder.locator('td').nth(3)).toHaveText('3');
  await expect(reminder.locator('td').nth(4)).toHaveText('1');
  await expect(reminder.getByRole('button', { name: /^Download failed recipients/ })).toBeVisible();
  await shoot(page, 'demo-receipts');
});

import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoPeople,
  demoTeamId,
  directMessagesTo,
  type EmulatorMember,
  emulatorURL,
  logIn,
  tagMembers,
} from './helpers.ts';

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('forms: every question type made in the wizard, answered in the Slack modal; the instance page charts them', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  const marker = Date.now().toString(36).slice(-5);
  const demo = await demoCredentials(request);
  const teamId = await demoTeamId(request);
  const people = await demoPeople(request, teamId);
  const ada = people.at(-3) as EmulatorMember;
  const tagName = `kinds-${marker}`;
  await tagMembers(request, teamId, [tagName], [ada.id]);

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/forms');
  await expect(page.getByRole('table', { name: 'Form Table' })).toBeVisible();

  await page.getByRole('button', { name: 'Create Form' }).click();
  const start = page.getByRole('dialog', { name: 'Create Form' });
  await start.getByRole('radio', { name: 'Bot' }).check();
  const formName = `Kinds ${marker}`;
  await start.getByLabel('Name of the Form').fill(formName);
  await start.getByRole('combobox', { name: 'Send Direct Message to tags' }).click();
  await page.getByRole('option', { name: tagName }).click();
  await start.getByRole('heading', { name: 'Create Form' }).click();
  await start.getByRole('button', { name: 'Next' }).click();

  const step2 = page.getByRole('dialog', { name: 'Make Your Form Questions' });
  await step2.getByLabel('Form Description').fill('Every kind of answer');
  const add = () => step2.getByRole('button', { name: 'Add question' }).click();
  await pick(page, step2, 'Question 1 type', 'Checkboxes (several answers)');
  await step2.getByLabel('Question 1 title').fill('Colours you like');
  await step2.getByLabel('Question 1 option 1').fill('Red');
  await step2.getByLabel('Question 1 option 2').fill('Blue');
  await step2.getByRole('button', { name: 'Add option' }).click();
  await step2.getByLabel('Question 1 option 3').fill('Green');
  await add();
  await pick(page, step2, 'Question 2 type', 'Number');
  await step2.getByLabel('Question 2 title').fill('Cups of coffee');
  await step2.getByLabel('Question 2 minimum').fill('0');
  await step2.getByLabel('Question 2 maximum').fill('12');
  await add();
  await pick(page, step2, 'Question 3 type', 'Date');
  await step2.getByLabel('Question 3 title').fill('Your start date');
  await add();
  await pick(page, step2, 'Question 4 type', 'Rating 1-5');
  await step2.getByLabel('Question 4 title').fill('Rate the onboarding');
  await add();
  await pick(page, step2, 'Question 5 type', 'Yes / No');
  await step2.getByLabel('Question 5 title').fill('Would you recommend us?');
  await add();
  await pick(page, step2, 'Question 6 type', 'Multiple choice');
  await step2.getByLabel('Question 6 title').fill('Lunch');
  await step2.getByLabel('Question 6 option 1').fill('Pizza');
  await step2.getByLabel('Question 6 option 2').fill('Soup');
  await add();
  await pick(page, step2, 'Question 7 type', 'Short answer');
  await step2.getByLabel('Question 7 title').fill('One word');
  expect(await axeViolations(page), 'axe on the wizard with every type').toEqual([]);
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Form created successfully')).toBeVisible();

  const formMessage = async () =>
    (await directMessagesTo(request, teamId, ada.id)).find((m) => m.text.includes(formName));
  await expect.poll(async () => Boolean(await formMessage()), { timeout: 30_000 }).toBe(true);
  const dm = (await formMessage())!;

  // Ada answers in the emulator's modal: each element as Slack's client shows it.
  const slack = await context.newPage();
  await slack.goto(`${emulatorURL}/?team=${teamId}&user=${ada.id}&channel=${dm.channel}`);
  await slack.getByRole('button', { name: 'Fill out the form' }).last().click();
  const modal = slack.locator('#surface');
  await expect(modal.getByRole('heading', { name: formName })).toBeVisible();
  const field = (q: number) => modal.locator(`[data-in="q${q}|answer"]`);
  await field(0).and(modal.locator('[value="0"]')).check();
  await field(0).and(modal.locator('[value="2"]')).check();
  await field(1).fill('13');
  await field(2).fill('2026-10-25');
  await field(3).selectOption({ label: '4' });
  await field(4).selectOption({ label: 'Yes' });
  await field(5).selectOption({ label: 'Soup' });
  await field(6).fill(`word-${marker}`);
  await modal.getByRole('button', { name: 'Submit' }).click();
  // Over the maximum: the app's error under the question, the modal stays.
  await expect(modal.getByText('Enter a number of at most 12')).toBeVisible();
  await field(1).fill('3');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(slack.locator('#overlay')).toBeHidden();
  await slack.close();

  // The instance page: the charts and the table.
  const table = page.getByRole('table', { name: 'Form Table' });
  const row = table.locator('tbody tr').filter({ hasText: formName });
  await expect
    .poll(
      async () => {
        await page.reload();
        return row.getByRole('button', { name: / responses? for / }).textContent();
      },
      { timeout: 30_000 },
    )
    .toBe('1 response');
  await row.getByRole('button', { name: / responses? for / }).click();
  const popup = page.getByRole('dialog', { name: `${formName}: instances` });
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    popup.getByRole('link', { name: /^Select / }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab.getByRole('heading', { name: formName })).toBeVisible({ timeout: 30_000 });
  const charts = tab.getByRole('region', { name: 'Answer charts' });
  await expect(charts.getByRole('img', { name: 'Colours you like: Red 1, Blue 0, Green 1' })).toBeVisible();
  await expect(charts.getByRole('img', { name: 'Cups of coffee: 3 1' })).toBeVisible();
  await expect(
    charts.getByRole('img', { name: 'Rate the onboarding: 1 0, 2 0, 3 0, 4 1, 5 0' }),
  ).toBeVisible();
  await expect(charts.getByRole('img', { name: 'Would you recommend us?: Yes 1, No 0' })).toBeVisible();
  await expect(charts.getByRole('img', { name: 'Lunch: Pizza 0, Soup 1' })).toBeVisible();
  await expect(charts.getByText('1 answer · average 4 of 5')).toBeVisible();
  await expect(charts.getByText('1 answer · min 3 · median 3 · max 3 · average 3')).toBeVisible();
  const answer = tab.getByRole('table', { name: 'Form responses' }).locator('tbody tr');
  await expect(answer).toHaveCount(1);
  for (const text of ['Red; Green', '2026-10-25', `word-${marker}`]) await expect(answer).toContainText(text);
  expect(await axeViolations(tab), 'axe on the instance page with charts').toEqual([]);
  await tab.close();
});

import fs from 'node:fs';
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

/** Where the screenshots of the new screens go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (what: Page | Locator, name: string) => {
  if (shots)
    await what.screenshot({ path: `${shots}/${name}.png`, ...('goto' in what ? { fullPage: true } : {}) });
};

async function expectAccessible(page: Page, what: string) {
  expect(await axeViolations(page), `axe violations on ${what}`).toEqual([]);
}

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The Result cell's button ('N responses for <form>'). */
const results = (row: Locator) => row.getByRole('button', { name: / responses? for / });

test('forms: create one with all three question types, send it to a tag, a member answers in the Slack modal; the instance page and the CSV show it', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  const marker = Date.now().toString(36).slice(-5);
  const demo = await demoCredentials(request);
  const teamId = await demoTeamId(request);

  // Two members get a tag (through the API, as the Members screen does).
  const people = await demoPeople(request, teamId);
  const [ada, bo] = people.slice(-2) as [EmulatorMember, EmulatorMember];
  const tagName = `form-crew-${marker}`;
  await tagMembers(request, teamId, [tagName], [ada.id, bo.id]);

  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.goto('/dashboard/actions/forms');
  const table = page.getByRole('table', { name: 'Form Table' });
  await expect(table).toBeVisible();

  // Step 1: sender, name, the tag; one time, sent at once.
  await page.getByRole('button', { name: 'Create Form' }).click();
  const start = page.getByRole('dialog', { name: 'Create Form' });
  await expect(start.getByRole('button', { name: 'Next' })).toBeDisabled();
  await start.getByRole('radio', { name: 'Bot' }).check();
  const formName = `Check-in ${marker}`;
  await start.getByLabel('Name of the Form').fill(formName);
  await start.getByRole('button', { name: 'Next' }).click();
  await expect(start.getByText('Select at least one member and/or channel and/or tag')).toBeVisible();
  await start.getByRole('combobox', { name: 'Send Direct Message to tags' }).click();
  await page.getByRole('option', { name: tagName }).click();
  // The picker's list stays open for more picks (and, with many tags, covers Next): click away as a person would.
  await start.getByRole('heading', { name: 'Create Form' }).click();
  await expect(page.getByRole('option', { name: tagName })).toBeHidden();
  await expect(start.getByRole('checkbox', { name: 'Send Instantaneous' })).toBeChecked();
  await shoot(start, 'form-wizard-step1');
  await start.getByRole('button', { name: 'Next' }).click();

  // Step 2: the product's texts first, then a descriptive, an MCQ and a short question.
  const step2 = page.getByRole('dialog', { name: 'Make Your Form Questions' });
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(step2.getByText("Form Description can't be empty")).toBeVisible();
  await expect(step2.getByText("Ques title can't be empty.")).toBeVisible();
  await step2.getByLabel('Form Description').fill('How did your week go?');
  await step2.getByLabel('Question 1 title').fill('What did you ship?');
  await step2.getByRole('button', { name: 'Add question' }).click();
  await pick(page, step2, 'Question 2 type', 'Multiple choice');
  await step2.getByLabel('Question 2 title').fill('How was the week?');
  await step2.getByLabel('Question 2 option 1').fill('Great');
  await step2.getByLabel('Question 2 option 2').fill('Rough');
  await step2.getByRole('button', { name: 'Add question' }).click();
  await pick(page, step2, 'Question 3 type', 'Short answer');
  await step2.getByLabel('Question 3 title').fill('One word for it');
  await step2.getByRole('switch', { name: 'Optional' }).nth(2).check();
  await expect(step2.getByLabel('Acknowledgement message')).toHaveValue(
    'Your response has been recorded successfully',
  );
  await expectAccessible(page, 'the create form wizard');
  await shoot(step2, 'form-wizard-step2');
  await step2.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Form created successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = table.locator('tbody tr').filter({ hasText: formName });
  await expect(row).toHaveCount(1);
  await expect(results(row)).toHaveText('0 responses');
  await expectAccessible(page, 'the Forms tab');
  await shoot(page, 'forms-tab');

  // Both tagged members get the form message with its button in their DMs.
  const formMessage = async (member: string) =>
    (await directMessagesTo(request, teamId, member)).find((m) => m.text.includes(formName));
  await expect.poll(async () => Boolean(await formMessage(ada.id)), { timeout: 30_000 }).toBe(true);
  await expect.poll(async () => Boolean(await formMessage(bo.id)), { timeout: 30_000 }).toBe(true);
  const adaDm = (await formMessage(ada.id))!;

  // Ada opens the emulator's member page, presses the button and answers in the modal.
  const slack = await context.newPage();
  await slack.goto(`${emulatorURL}/?team=${teamId}&user=${ada.id}&channel=${adaDm.channel}`);
  await slack.getByRole('button', { name: 'Fill out the form' }).last().click();
  const modal = slack.locator('#surface');
  await expect(modal.getByRole('heading', { name: formName })).toBeVisible();
  // Spaces pass Slack's own required check; the app answers with the modal's error.
  await modal.locator('[data-in="q0|answer"]').fill('   ');
  await modal.locator('[data-in="q1|answer"]').selectOption({ label: 'Great' });
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(modal.getByText('Please answer this question')).toBeVisible();
  await shoot(slack, 'form-modal-error');
  await modal.locator('[data-in="q0|answer"]').fill(`Shipped forms ${marker}`);
  await modal.locator('[data-in="q1|answer"]').selectOption({ label: 'Great' });
  await modal.locator('[data-in="q2|answer"]').fill('busy');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(slack.locator('#overlay')).toBeHidden();
  // The acknowledgement DM arrives.
  await expect
    .poll(
      async () =>
        (await directMessagesTo(request, teamId, ada.id)).some(
          (m) => m.text === 'Your response has been recorded successfully',
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
  await slack.close();

  // Results: the instance with one response; Select opens the instance page in a new tab.
  await page.reload();
  await expect(results(row)).toHaveText('1 response');
  await results(row).click();
  const popup = page.getByRole('dialog', { name: `${formName}: instances` });
  const instances = popup.getByRole('table', { name: 'Form Instances' });
  await expect(instances.locator('tbody tr')).toHaveCount(1);
  await expect(instances.locator('tbody tr').first()).toContainText('1');
  await expectAccessible(page, 'the Form Instances popup');
  await shoot(popup, 'form-instances-popup');
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    popup.getByRole('link', { name: /^Select / }).click(),
  ]);
  await tab.waitForLoadState();
  await expect(tab).toHaveURL(/\/dashboard\/actions\/form-instances\/\d+\/\d+\/.+\?name=/);
  // A new tab loads the whole app before its first call: on a busy machine that is more than the 10 s default.
  await expect(tab.getByRole('heading', { name: formName })).toBeVisible({ timeout: 30_000 });
  const responses = tab.getByRole('table', { name: 'Form responses' });
  await expect(responses.getByRole('columnheader', { name: 'What did you ship?' })).toBeVisible();
  const answer = responses.locator('tbody tr').filter({ hasText: `Shipped forms ${marker}` });
  await expect(answer).toHaveCount(1);
  await expect(answer).toContainText(ada.real_name);
  await expect(answer).toContainText('Great');
  await expect(answer).toContainText('busy');
  await expectAccessible(tab, 'the form instance page');
  await shoot(tab, 'form-instance-page');

  // The CSV: 'Form details', with a byte-order mark, the header and Ada's answers.
  const [download] = await Promise.all([
    tab.waitForEvent('download'),
    tab.getByRole('button', { name: 'Export' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Form details.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(
    csv.startsWith(
      '\uFEFF"Name","Email","Submitted At","What did you ship?","How was the week?","One word for it"',
    ),
  ).toBe(true);
  expect(csv).toContain(`"Shipped forms ${marker}","Great","busy"`);
  await tab.close();

  // The Send-form popup: another instance to one member; then delete the form.
  await popup.getByRole('button', { name: 'Close' }).click();
  await row.getByRole('button', { name: `Send ${formName}` }).click();
  const send = page.getByRole('dialog', { name: `Send ${formName}` });
  await send.getByRole('button', { name: 'Confirm' }).click();
  await expect(send.getByText('Select at least one member or channel or tag')).toBeVisible();
  await send.getByRole('combobox', { name: 'Members' }).fill(bo.real_name);
  await page.getByRole('option', { name: bo.real_name }).first().click();
  await send.getByRole('heading', { name: `Send ${formName}` }).click(); // closes the picker's list
  await send.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Form sent successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await row.getByRole('button', { name: `Delete ${formName}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete form?' })
    .getByRole('button', { name: 'Delete form' })
    .click();
  await expect(page.getByText('Form deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
});

import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  axeViolations,
  demoCredentials,
  demoPeople,
  demoTeamId,
  directMessagesTo,
  emulatorURL,
  logIn,
  tagMembers,
} from './helpers.ts';

/** Where the screenshots of the new screens go when SCREENSHOTS is set (for a look, not for the test). */
const shots = process.env.SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

async function signIn(page: Page, request: APIRequestContext) {
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
}

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function expectAccessible(page: Page, what: string, include?: string) {
  expect(await axeViolations(page, include), `axe violations on ${what}`).toEqual([]);
}

const closed = (page: Page) => expect(page.getByRole('dialog')).toHaveCount(0);

async function addDelay(page: Page, amount: string, unit: 'Minutes' | 'Hours' | 'Days') {
  await page.getByRole('button', { name: 'Add delay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set Delay' });
  await dialog.getByRole('radio', { name: 'Delay', exact: true }).check();
  await pick(page, dialog, 'Unit', unit);
  await dialog.getByLabel('Duration').fill(amount);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await closed(page);
}

async function addMessage(page: Page, title: string, text: string, shot?: string) {
  await page.getByRole('button', { name: 'Add action' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an Action' });
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await dialog.getByText('Send Message', { exact: true }).click();
  await dialog.getByLabel('Message title').fill(title);
  await dialog.getByRole('textbox', { name: 'Message', exact: true }).click();
  await page.keyboard.type(text);
  await dialog.getByRole('checkbox', { name: /Users in criteria/ }).check();
  if (shot) {
    await expectAccessible(page, 'the action dialog', '[role="dialog"]');
    await shoot(page, shot);
  }
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await closed(page);
}

test('workflows: build join → message → 2 days → form → 3 hours → message with the card flow, save, list, details; the first step reaches a new member', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const marker = Date.now().toString(36).slice(-6);
  const name = `Onboarding ${marker}`;
  await signIn(page, request);
  const teamId = await demoTeamId(request);

  await page.goto('/dashboard/workflows');
  await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible();
  await page.getByRole('link', { name: 'Create New WorkFlow' }).click();
  await expect(page).toHaveURL(/\/dashboard\/workflows\/create-new-workflow$/);
  await expect(page.getByRole('heading', { name: 'Create Your WorkFlow' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await expectAccessible(page, 'the empty create page');

  // The trigger.
  await page.getByRole('button', { name: 'Initialize the workflow' }).click();
  const trigger = page.getByRole('dialog', { name: 'Initialize the Workflow' });
  await trigger.getByLabel('Workflow name').fill(name);
  await trigger.getByRole('radio', { name: 'Bot' }).check();
  await pick(page, trigger, 'Trigger type', 'Workspace Join');
  await expectAccessible(page, 'the trigger dialog', '[role="dialog"]');
  await trigger.getByRole('button', { name: 'Submit' }).click();
  await closed(page);
  await expect(save).toBeDisabled();

  // message (no delay) → 2 days → form → 3 hours → message.
  await addMessage(page, `Welcome ${marker}`, `Welcome aboard ${marker}`);
  await expect(save).toBeEnabled();
  await addDelay(page, '2', 'Days');
  await expect(save).toBeDisabled();

  await page.getByRole('button', { name: 'Add action' }).click();
  const form = page.getByRole('dialog', { name: 'Create an Action' });
  await form.getByText('Send Form', { exact: true }).click();
  await form.getByLabel('Form title').fill(`Week one ${marker}`);
  await form.getByLabel('Form Description').fill('How was your first week?');
  await form.getByLabel('Question 1 title').fill('Anything we can help with?');
  await form.getByRole('checkbox', { name: /Users in criteria/ }).check();
  await form.getByRole('button', { name: 'Submit' }).click();
  await closed(page);

  await addDelay(page, '3', 'Hours');
  await addMessage(page, `Follow-up ${marker}`, `Still with us ${marker}?`, 'workflow-action-dialog');
  await expect(page.getByText('6 of 11 cards')).toBeVisible();
  await expectAccessible(page, 'the create page with a flow');
  await shoot(page, 'workflow-create');

  await save.click();
  await expect(page.getByText('Workflow created successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/workflows$/);

  // The list.
  const table = page.getByRole('table', { name: 'Workflows' });
  const row = table.locator('tbody tr').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByText('Workspace Join')).toBeVisible();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(row.getByText('Bot', { exact: true })).toBeVisible();
  await expectAccessible(page, 'the workflows list');
  await shoot(page, 'workflows-list');

  // A member joins: the first step (no delay) reaches them.
  const joined = await request.post(`${emulatorURL}/_admin/teams/${teamId}/members`, {
    data: { realName: `Newt ${marker}` },
  });
  expect(joined.ok()).toBe(true);
  const member = (await joined.json()) as { id: string };
  await expect
    .poll(
      async () =>
        (await directMessagesTo(request, teamId, member.id)).filter((m) =>
          m.text.includes(`Welcome aboard ${marker}`),
        ).length,
      { timeout: 60_000 },
    )
    .toBe(1);

  // The details modal.
  await row.getByRole('button', { name: `View details of ${name}` }).click();
  const details = page.getByRole('dialog', { name: 'Workflow Details' });
  await expect(details.getByText('When a member joins the workspace', { exact: false })).toBeVisible();
  await expect(details.getByText(`Send the message "Welcome ${marker}" with no delay`)).toBeVisible();
  await expect(details.getByText(`Send the form "Week one ${marker}" after 2 day delay`)).toBeVisible();
  await expect(details.getByText(`Send the message "Follow-up ${marker}" after 3 hour delay`)).toBeVisible();
  await expectAccessible(page, 'the details modal', '[role="dialog"]');
  await shoot(page, 'workflow-details-modal');

  // The trigger's history: the member who joined.
  await details.getByRole('link', { name: 'Trigger details' }).click();
  await expect(page).toHaveURL(/\/dashboard\/workflows\/details\?workflowid=\d+&type=trigger/);
  await expect(
    page.getByRole('heading', { name: `Trigger details for the workflow "${name}"` }),
  ).toBeVisible();
  const history = page.getByRole('table', { name: 'Trigger details' });
  await expect(history.getByText(`Newt ${marker}`)).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page, 'the trigger details page');

  // The first step's history: sent to the member.
  await page.goBack();
  await row.getByRole('button', { name: `View details of ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Workflow Details' })
    .getByRole('link', { name: 'Details of step 1' })
    .click();
  await expect(
    page.getByRole('heading', { name: `Action details for the message "Welcome ${marker}"` }),
  ).toBeVisible();
  const sends = page.getByRole('table', { name: 'Action details' });
  await expect(sends.locator('tbody tr').filter({ hasText: `Newt ${marker}` })).toHaveCount(1, {
    timeout: 20_000,
  });
  await expectAccessible(page, 'the action details page');
  await shoot(page, 'workflow-action-details');

  // The form step: pending for the member (2 days away).
  await page.goBack();
  await row.getByRole('button', { name: `View details of ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Workflow Details' })
    .getByRole('link', { name: 'Details of step 2' })
    .click();
  await expect(
    page.getByRole('heading', { name: `Action details for the message "Week one ${marker}"` }),
  ).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
  await expectAccessible(page, 'the form action details page');
});

/** 'DD/MM/YYYY HH:MM' plus `minutes`, as wall-clock arithmetic (the dialog's own time zone). */
function laterWall(wall: string, minutes: number): { date: string; time: string } {
  const [, d, mo, y, h, mi] = /^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d)$/.exec(wall)!.map(Number) as number[];
  const t = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi! + minutes));
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${two(t.getUTCDate())}/${two(t.getUTCMonth() + 1)}/${t.getUTCFullYear()}`,
    time: `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}`,
  };
}

test("workflows: a time trigger for a tag, sent to the trigger's tags; it cannot be stopped, only deleted", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const marker = Date.now().toString(36).slice(-6);
  const name = `Town hall ${marker}`;
  const tagName = `town-hall-${marker}`;
  const teamId = await demoTeamId(request);
  const people = await demoPeople(request, teamId);
  await tagMembers(
    request,
    teamId,
    [tagName],
    people.slice(0, 2).map((m) => m.id),
  );
  await signIn(page, request);
  await page.goto('/dashboard/workflows/create-new-workflow');
  await expect(page.getByRole('heading', { name: 'Create Your WorkFlow' })).toBeVisible();

  // The trigger: a time 25 minutes from now in the workspace's time zone (the earliest allowed is 15).
  await page.getByRole('button', { name: 'Initialize the workflow' }).click();
  const trigger = page.getByRole('dialog', { name: 'Initialize the Workflow' });
  await trigger.getByLabel('Workflow name').fill(name);
  await trigger.getByRole('radio', { name: 'Bot' }).check();
  await pick(page, trigger, 'Trigger type', 'Time Trigger');
  const earliest = /Earliest (\d\d\/\d\d\/\d{4} \d\d:\d\d)/.exec(
    (await trigger.getByText(/^Earliest /).textContent())!,
  )![1]!;
  // Too soon first: the dialog says so and keeps Submit disabled.
  const soon = laterWall(earliest, -10);
  await trigger.getByLabel('Date').fill(soon.date);
  await trigger.getByLabel('Time').fill(soon.time);
  await trigger.getByLabel('Date').click();
  await expect(trigger.getByText('Invalid date and time range')).toBeVisible();
  await expect(trigger.getByRole('button', { name: 'Submit' })).toBeDisabled();
  const at = laterWall(earliest, 10);
  await trigger.getByLabel('Date').fill(at.date);
  await trigger.getByLabel('Time').fill(at.time);
  await trigger.getByRole('combobox', { name: 'Tags' }).click();
  await page.getByRole('option', { name: tagName }).click();
  await trigger.getByRole('heading', { name: 'Initialize the Workflow' }).click();
  await expect(page.getByRole('option', { name: tagName })).toBeHidden();
  await expectAccessible(page, 'the time trigger dialog', '[role="dialog"]');
  await trigger.getByRole('button', { name: 'Submit' }).click();
  await closed(page);

  // The message goes to the trigger's tags ('Users in criteria' is not offered for a time trigger).
  await page.getByRole('button', { name: 'Add action' }).click();
  const action = page.getByRole('dialog', { name: 'Create an Action' });
  await action.getByText('Send Message', { exact: true }).click();
  await action.getByLabel('Message title').fill(`Town hall reminder ${marker}`);
  await action.getByRole('textbox', { name: 'Message', exact: true }).click();
  await page.keyboard.type(`The town hall starts soon ${marker}`);
  await expect(action.getByRole('checkbox', { name: /Users in criteria/ })).toHaveCount(0);
  await action.getByRole('combobox', { name: "The trigger's tags" }).click();
  await page.getByRole('option', { name: tagName }).click();
  await action.getByRole('heading', { name: 'Create an Action' }).click();
  await action.getByRole('button', { name: 'Submit' }).click();
  await closed(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Workflow created successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/workflows$/);

  // Listed as an active Time Trigger whose Stop is disabled, with the product's reason on hover.
  const row = page.getByRole('table', { name: 'Workflows' }).locator('tbody tr').filter({ hasText: name });
  await expect(row.getByText('Time Trigger')).toBeVisible();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  const stop = row.getByRole('button', { name: new RegExp(`^Stop ${name}`) });
  await expect(stop).toBeDisabled();
  await row.getByTestId(/^stop-wrapper-/).hover();
  await expect(page.getByText('Cannot stop time trigger, Please delete instead!')).toBeVisible();

  // The details say when it runs and for whom.
  await row.getByRole('button', { name: `View details of ${name}` }).click();
  const details = page.getByRole('dialog', { name: 'Workflow Details' });
  await expect(details).toContainText(at.time);
  await expect(
    details.getByText(`Send the message "Town hall reminder ${marker}" with no delay`),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await closed(page);

  // Delete: confirmed, gone from the list.
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete workflow' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Workflow deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
});

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

const triggers = (page: Page) => page.getByRole('table', { name: 'Triggers' });
const rowWith = (table: Locator, text: string) => table.locator('tbody tr').filter({ hasText: text });

async function signIn(page: Page, request: APIRequestContext) {
  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
}

async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Create Trigger with the Bot: step 1, then `compose` fills step 2, then 'create Trigger'. */
/** The second step of a send to the whole workspace: "Send to N members?", confirmed. */
async function confirmRecipients(page: Page) {
  const step = page.getByRole('dialog', { name: /^Send to [\d,]+ members\?$/ });
  await expect(step).toBeVisible();
  await step.getByRole('button', { name: /^Send to [\d,]+ members$/ }).click();
}

async function createTrigger(
  page: Page,
  compose: (dialog: Locator) => Promise<void>,
  opts: { wholeWorkspace?: boolean } = {},
) {
  await page.getByRole('button', { name: 'Create Trigger' }).click();
  const start = page.getByRole('dialog', { name: 'Create Trigger' });
  await expect(start.getByRole('button', { name: 'Next' })).toBeDisabled();
  await pick(page, start, 'Choose Trigger', 'Member Join');
  await start.getByRole('radio', { name: 'Bot' }).check();
  await start.getByRole('button', { name: 'Next' }).click();
  const dialog = page.getByRole('dialog', { name: 'Compose Message' });
  await compose(dialog);
  await dialog.getByRole('button', { name: 'create Trigger' }).click();
  if (opts.wholeWorkspace) await confirmRecipients(page);
  await expect(page.getByText('Trigger created successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

async function write(page: Page, dialog: Locator, text: string) {
  await dialog.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.type(text);
}

test('automation: a Member Join DM reaches the new member exactly once, redeliveries included; edit and delete', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const marker = Date.now().toString(36);
  const text = `DM the new member ${marker}`;
  await signIn(page, request);
  const teamId = await demoTeamId(request);

  await page.goto('/dashboard/actions/automate');
  await expect(triggers(page)).toBeVisible();
  await createTrigger(page, async (dialog) => {
    // Nothing to send to yet: the product's texts.
    await dialog.getByRole('button', { name: 'create Trigger' }).click();
    await expect(
      dialog.getByText('Select at least one member and/or channel and/or tag and/or DM the new user'),
    ).toBeVisible();
    await expect(dialog.getByText('The message cannot be empty!')).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'Send DM to new user' }).check();
    await write(page, dialog, text);
  });
  const row = rowWith(triggers(page), text);
  await expect(row).toHaveCount(1);
  await expect(row.getByText('New member', { exact: true })).toBeVisible();

  // A member joins (the emulator sends team_join to the server's events URL).
  const joined = await request.post(`${emulatorURL}/_admin/teams/${teamId}/members`, {
    data: { realName: `Newt ${marker}` },
  });
  expect(joined.ok()).toBe(true);
  const member = (await joined.json()) as { id: string };
  const dms = async () =>
    (await directMessagesTo(request, teamId, member.id)).filter((m) => m.text.includes(marker));
  await expect.poll(async () => (await dms()).length, { timeout: 60_000 }).toBe(1);

  // Slack may deliver the same event again: as a retry with the same event_id, and with a new event_id.
  const deliveries = (await (
    await request.get(`${emulatorURL}/_admin/deliveries?type=team_join`)
  ).json()) as {
    eventId: string;
    envelope: { event: { user: { id: string } } };
  }[];
  const join = deliveries.find((d) => d.envelope.event.user.id === member.id);
  expect(join, 'the team_join delivery').toBeTruthy();
  for (const body of [{}, { newEventId: true }]) {
    const again = await request.post(`${emulatorURL}/_admin/deliveries/${join!.eventId}/redeliver`, {
      data: body,
    });
    expect(again.ok()).toBe(true);
  }
  await expect
    .poll(
      async () => {
        const log = (await (await request.get(`${emulatorURL}/_admin/deliveries?type=team_join`)).json()) as {
          envelope: { event: { user: { id: string } } };
          state: string;
        }[];
        return log.filter((d) => d.envelope.event.user.id === member.id && d.state === 'delivered').length;
      },
      { timeout: 15_000 },
    )
    .toBe(3);
  // A barrier: the server applies its inbox in arrival order, so once a member who joins after the
  // redeliveries has their DM, the redeliveries were applied too. The first member still has exactly one.
  const later = await request.post(`${emulatorURL}/_admin/teams/${teamId}/members`, {
    data: { realName: `Later ${marker}` },
  });
  const laterId = ((await later.json()) as { id: string }).id;
  await expect
    .poll(
      async () =>
        (await directMessagesTo(request, teamId, laterId)).filter((m) => m.text.includes(marker)).length,
      { timeout: 60_000 },
    )
    .toBe(1);
  await page.waitForTimeout(3_000);
  expect(await dms()).toHaveLength(1);

  // Edit the trigger's message; the row changes in place.
  await row.getByRole('button', { name: 'Edit Member Join' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Trigger' });
  await edit.getByRole('textbox', { name: 'Message' }).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(`Welcome aboard ${marker}`);
  await edit.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByText('Updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();
  const edited = rowWith(triggers(page), `Welcome aboard ${marker}`);
  await expect(edited).toHaveCount(1);

  // A trigger that DMs the whole workspace cannot be edited: the button says why.
  await createTrigger(
    page,
    async (dialog) => {
      expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
      await dialog.getByRole('checkbox', { name: 'Send DM to all members of workspace' }).check();
      await write(page, dialog, `Everyone ${marker}`);
    },
    { wholeWorkspace: true },
  );
  const bulk = rowWith(triggers(page), `Everyone ${marker}`);
  await expect(bulk.getByRole('button', { name: 'Edit Member Join' })).toBeDisabled();
  await bulk.getByRole('button', { name: 'Edit Member Join' }).locator('..').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Edit option is not availble for bulk DM');
  // The tab with rows (one of them bulk DM) passes axe's WCAG 2 A/AA rules.
  await page.mouse.move(0, 0);
  expect(await axeViolations(page, 'main')).toEqual([]);

  // Delete both (each asks first).
  const confirmDelete = async () => {
    const ask = page.getByRole('dialog', { name: 'Delete trigger?' });
    await expect(ask).toContainText('Members who join from now on will not get its message.');
    await ask.getByRole('button', { name: 'Delete trigger' }).click();
    await expect(ask).toBeHidden();
  };
  await bulk.getByRole('button', { name: 'Delete Member Join' }).click();
  await confirmDelete();
  await expect(bulk).toHaveCount(0);
  await edited.getByRole('button', { name: 'Delete Member Join' }).click();
  await confirmDelete();
  await expect(edited).toHaveCount(0);
  await page.reload();
  await expect(triggers(page)).toBeVisible();
  await expect(triggers(page).locator('tbody tr').filter({ hasText: marker })).toHaveCount(0);
});

test('schedule: a weekly message created in the wizard shows in the Schedule Table with its next run', async ({
  page,
  request,
}) => {
  // A three-step wizard, a confirmation, a reload and a delete: over a minute on a busy machine.
  test.setTimeout(120_000);
  const marker = Date.now().toString(36);
  await signIn(page, request);
  await page.goto('/dashboard/actions/schedule');
  const table = page.getByRole('table', { name: 'Schedule Table' });
  await expect(table).toBeVisible();

  await page.getByRole('button', { name: 'Schedule Message' }).click();
  const start = page.getByRole('dialog', { name: 'Enter Message Heading' });
  await expect(start).toBeVisible();
  expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
  const next = start.getByRole('button', { name: 'Next' });
  await start.getByLabel('Message Heading').fill(`Digest ${marker}`);
  await start.getByRole('radio', { name: 'Bot' }).check();
  await expect(next).toBeDisabled();
  await pick(page, start, 'Frequency', 'Weekly');
  await next.click();
  await expect(start.getByText('No field Can be empty')).toBeVisible();
  await start.getByText('Mon', { exact: true }).click();
  await start.getByLabel('Time', { exact: true }).fill('09:30');
  await next.click();
  const compose = page.getByRole('dialog', { name: 'Compose Message' });
  await expect(compose.getByRole('checkbox', { name: 'Send DM to new user' })).toHaveCount(0);
  await write(page, compose, `Weekly digest ${marker}`);
  await compose.getByRole('button', { name: 'create Trigger' }).click();
  await expect(compose.getByText('Select at least one member and/or channel and/or tag')).toBeVisible();
  await compose.getByRole('checkbox', { name: 'Send DM to all members of workspace' }).check();
  await compose.getByRole('button', { name: 'create Trigger' }).click();
  // The whole workspace: a second step names the count (and the budget left) before anything is created.
  await expect(page.getByRole('dialog', { name: /^Send to [\d,]+ members\?$/ })).toContainText(
    /Daily budget: [\d,]+ of [\d,]+ messages left/,
  );
  await confirmRecipients(page);
  await expect(page.getByText('Message scheduled successfully')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  const row = rowWith(table, `Digest ${marker}`);
  await expect(row).toHaveCount(1);
  const cells = row.locator('td');
  await expect(cells.nth(3)).toHaveText('Weekly');
  await expect(cells.nth(4)).toHaveText('09:30');
  await expect(cells.nth(5)).toHaveText('Mon');
  await expect(cells.nth(6)).toHaveText(/^Mon \d{1,2} [A-Z][a-z]{2}, 09:30\s*\S+$/);
  expect(await axeViolations(page, 'main')).toEqual([]);
  // The bulk-DM schedule is there after a reload too (read from the server).
  await page.reload();
  await expect(rowWith(page.getByRole('table', { name: 'Schedule Table' }), `Digest ${marker}`)).toHaveCount(
    1,
  );
  await rowWith(page.getByRole('table', { name: 'Schedule Table' }), `Digest ${marker}`)
    .getByRole('button', { name: `Delete Digest ${marker}` })
    .click();
  const ask = page.getByRole('dialog', { name: 'Delete schedule?' });
  await expect(ask).toContainText(`The schedule "Digest ${marker}" will be deleted.`);
  await ask.getByRole('button', { name: 'Delete schedule' }).click();
  await expect(rowWith(page.getByRole('table', { name: 'Schedule Table' }), `Digest ${marker}`)).toHaveCount(
    0,
  );
});

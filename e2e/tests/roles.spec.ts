import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, logIn, pickOption, verifiedAccount } from './helpers.ts';

const VIEWER_OPTION = 'Viewer: reads dashboards and exports, acts on nothing';

/*
 * Roles (issue 36): an Owner invites a Viewer from Settings → Team; the Viewer logs in, reads Analytics, and
 * cannot send (the button is disabled with the reason). The Settings tabs pass axe (the audit log's in audit.spec).
 */
test('an Owner invites a Viewer, who sees Analytics and cannot send; Settings is accessible', async ({
  page,
  browser,
  request,
}) => {
  const demo = await demoCredentials(request);
  const viewer = await verifiedAccount(request, 'viewer');

  // The demo administrator installed the workspace through Slack: an Owner.
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/team$/);
  const admins = page.getByRole('region', { name: 'Admins' });
  await expect(admins.getByText(demo.email)).toBeVisible();

  await admins.getByRole('button', { name: 'Invite an admin' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(viewer.email);
  await pickOption(page, dialog.getByRole('combobox', { name: 'Role' }), VIEWER_OPTION);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  const invitations = page.getByRole('region', { name: 'Pending invitations' });
  await expect(
    invitations.getByRole('row', { name: new RegExp(viewer.email.replace(/\./g, '\\.')) }),
  ).toContainText('Viewer');
  expect(await axeViolations(page), 'axe violations on Settings → Team').toEqual([]);

  await page.getByRole('tab', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/api-keys$/);
  await expect(page.getByRole('button', { name: 'Create API key' })).toBeVisible();
  expect(await axeViolations(page), 'axe violations on Settings → API keys').toEqual([]);

  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/webhooks$/);
  await expect(page.getByRole('button', { name: 'Create webhook' })).toBeVisible();
  expect(await axeViolations(page), 'axe violations on Settings → Webhooks').toEqual([]);

  // The Viewer logs in (accepting the invitation) in a browser of their own.
  const context = await browser.newContext();
  const theirs = await context.newPage();
  await logIn(theirs, viewer.email, viewer.password);
  await expect(theirs).toHaveURL(/\/dashboard\/home$/, { timeout: 20_000 });
  await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  await expect(theirs.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();

  await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  const send = theirs.getByRole('button', { name: 'Send Message' });
  await expect(send).toBeDisabled({ timeout: 20_000 });
  await send.locator('..').hover();
  await expect(theirs.getByRole('tooltip')).toContainText("Viewers can't send");
  expect(await axeViolations(theirs), "axe violations on a Viewer's Members").toEqual([]);

  // Their Settings are read-only.
  await theirs.goto('/dashboard/settings/team');
  await expect(theirs.getByText('Only an Owner can change roles, remove admins or invite.')).toBeVisible();
  await expect(theirs.getByRole('button', { name: 'Invite an admin' })).toHaveCount(0);
  await context.close();
});

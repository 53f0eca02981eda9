import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoCredentials, logIn, verifiedAccount } from './helpers.ts';

/** On the emulator's authorize page: pick the workspace (when offered) and press Allow. */
async function allowOnSlack(page: Page, workspace: RegExp) {
  await expect(page.getByText(/is requesting permission to access/)).toBeVisible();
  const picker = page.locator('select[name="team"]');
  if (await picker.count()) {
    const value = await picker.locator('option', { hasText: workspace }).getAttribute('value');
    await picker.selectOption(value!);
  }
  await page.getByRole('button', { name: 'Allow' }).click();
}

test('the demo administrator logs in and sees the demo workspace', async ({ page, request }) => {
  const demo = await demoCredentials(request);
  await page.goto('/auth/login');
  await expect(page.getByText(demo.email)).toBeVisible();
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await expect(page.getByRole('button', { name: 'Workspaces' })).toContainText(/Community 1/);
});

test('sign up, Create Workspace through Slack, land on Home, then switch workspace', async ({
  page,
  request,
}) => {
  await demoCredentials(request);
  const { email, password } = await verifiedAccount(request, 'installer');
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);

  await page.getByRole('button', { name: 'Add to Slack' }).click();
  await expect(page).toHaveURL(/\/oauth\/v2\/authorize/);
  // The install asks for the bot's scopes only: the user scopes (Send as Admin) wait for Add as Admin.
  await expect(page.getByRole('heading', { name: /bot scopes/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: /user scopes/ })).toHaveCount(0);
  await allowOnSlack(page, /Community 2/);

  await expect(page).toHaveURL(/\/dashboard\/home$/, { timeout: 20_000 });
  await expect(page.getByText('Attention')).toBeVisible();
  const dropdown = page.getByRole('button', { name: 'Workspaces' });
  await expect(dropdown).toContainText(/Community 2/);
  await expect(
    page
      .getByRole('region', { name: 'History import' })
      .or(page.getByRole('heading', { name: 'Home' }))
      .first(),
  ).toBeVisible();

  // Add as Admin: Slack asks for the user scopes too, for this workspace only.
  await page.getByRole('button', { name: 'Add as Admin' }).click();
  await expect(page).toHaveURL(/\/oauth\/v2\/authorize/);
  await expect(page.getByRole('heading', { name: /user scopes/ })).toBeVisible();
  await expect(page.locator('select[name="team"]')).toHaveCount(0);
  await allowOnSlack(page, /Community 2/);
  await expect(page).toHaveURL(/\/dashboard\/home$/, { timeout: 20_000 });
  await expect(page.getByText(/You are now an admin of .*Community 2/)).toBeVisible();

  // 'Create Workspace' again from the dropdown: connect the first demo workspace too, then switch.
  await dropdown.click();
  await page.getByRole('menuitem', { name: 'Create Workspace' }).click();
  await allowOnSlack(page, /Community 1/);
  await expect(page).toHaveURL(/\/dashboard\/home$/, { timeout: 20_000 });

  const session = () =>
    page.evaluate(
      () =>
        JSON.parse(localStorage.getItem('flywheel.session')!) as {
          currentworkspace: string;
          workspace: { team_id: string; workspace_name: string }[];
        },
    );
  expect((await session()).workspace).toHaveLength(2);
  const before = (await session()).currentworkspace;
  const other = (await session()).workspace.find((w) => w.team_id !== before)!;
  await page.getByRole('button', { name: 'Workspaces' }).click();
  await page.getByRole('menuitem', { name: other.workspace_name }).click();
  await expect.poll(async () => (await session()).currentworkspace).toBe(other.team_id);
  await expect(page.getByRole('button', { name: 'Workspaces' })).toContainText(other.workspace_name);
});

test('cancelling on Slack shows Failure and goes home', async ({ page, request }) => {
  await demoCredentials(request);
  const { email, password } = await verifiedAccount(request, 'canceller');
  await logIn(page, email, password);
  await page.getByRole('button', { name: 'Add to Slack' }).click();
  await expect(page.getByText(/is requesting permission to access/)).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Failure')).toBeVisible();
  await expect(page.getByText('You cancelled the installation in Slack.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/createdashboard$/);
});

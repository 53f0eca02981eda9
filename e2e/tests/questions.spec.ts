import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeViolations, demoCredentials, demoTeamId, emulatorURL, logIn, pickOption } from './helpers.ts';

const expectAccessible = async (page: Page, what: string) =>
  expect(await axeViolations(page), `axe violations on ${what}`).toEqual([]);

test('questions: a question posted in Slack appears in Actions > Questions, a reply from another member takes it off; Response Time on Analytics', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const teamId = await demoTeamId(request);
  const admin = `${emulatorURL}/_admin/teams/${teamId}`;
  const install = (await (await request.get(`${admin}/install`)).json()) as {
    botUserId: string;
    installerId: string;
  };
  const members = (await (await request.get(`${admin}/members?format=json`)).json()) as {
    id: string;
    is_bot?: boolean;
    is_admin?: boolean;
    is_owner?: boolean;
    deleted?: boolean;
  }[];
  // Members who are not admins: their questions count.
  const people = new Set(
    members
      .filter((m) => !m.is_bot && !m.deleted && !m.is_admin && !m.is_owner && m.id !== 'USLACKBOT')
      .map((m) => m.id),
  );
  const channels = (await (await request.get(`${admin}/channels`)).json()) as {
    id: string;
    name: string;
    is_im?: boolean;
    is_private?: boolean;
    members?: string[];
  }[];
  const channel = channels.find(
    (c) =>
      !c.is_im && !c.is_private && c.members?.includes(install.botUserId) && (c.members?.length ?? 0) > 5,
  )!;
  const [asker, answerer] = channel.members!.filter((id) => people.has(id) && id !== install.installerId) as [
    string,
    string,
  ];
  const word = `nebula${Date.now().toString(36)}`;
  const posted = (await (
    await request.post(`${admin}/messages`, {
      data: { channel: channel.id, user: asker, text: `Where do I find the ${word} runbook?` },
    })
  ).json()) as { ts: string };

  const demo = await demoCredentials(request);
  await logIn(page, demo.email, demo.password);
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Actions' }).click();
  await page.getByRole('tab', { name: 'Questions' }).click();
  await expect(page).toHaveURL(/\/dashboard\/actions\/questions$/);
  await expect(page.getByRole('heading', { name: 'Unanswered questions' })).toBeVisible();
  // A question waits 2 hours by default: list the ones waiting any time, and look for this one.
  await pickOption(page, page.getByRole('combobox', { name: 'Unanswered for' }), 'Any time');
  await page.getByRole('textbox', { name: 'Search questions' }).fill(word);
  const card = page.getByTestId('question-card').filter({ hasText: `${word} runbook` });
  // The event reaches Flywheel within moments; the list asks the server again every 10 s.
  await expect(card).toBeVisible({ timeout: 45_000 });
  await expect(page.getByText('1 unanswered')).toBeVisible();
  await expect(card.getByRole('link', { name: /in Slack$/ })).toHaveAttribute(
    'href',
    new RegExp(posted.ts.replace('.', '')),
  );
  await expectAccessible(page, 'the Questions tab');

  // Another member replies in the thread: the question is answered and leaves the list.
  await request.post(`${admin}/messages`, {
    data: { channel: channel.id, user: answerer, text: 'It is pinned in the channel', thread_ts: posted.ts },
  });
  await expect(page.getByText('No unanswered questions match')).toBeVisible({ timeout: 45_000 });
  await expect(card).toHaveCount(0);
  await expect(page.getByText('0 unanswered')).toBeVisible();

  // Response Time on Analytics: the answered question counts.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  const rt = page.locator('#response-time');
  await rt.scrollIntoViewIfNeeded();
  await expect(rt.getByRole('table', { name: 'Response time per channel' })).toBeVisible({ timeout: 30_000 });
  await expect(rt.getByRole('row').filter({ hasText: `#${channel.name}` })).toBeVisible();
  await expectAccessible(page, 'Analytics with the Response Time card');
});

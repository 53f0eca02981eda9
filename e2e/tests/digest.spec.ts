import { expect, test } from './fixtures.ts';
import { axeViolations, signInToDemo } from './helpers.ts';

type Digest = {
  week: { start: string; end: string };
  numbers: { name: string; value: number; previous: number }[];
  questions: { total: number };
  members: { new: { count: number } };
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const short = (day: string) => `${Number(day.slice(8))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`;

test('weekly digest: the demo admin gets it; the preview shows the week as the API gives it, week by week; axe clean', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const { headers, teamId } = await signInToDemo(page, request);
  const digest = (await (await request.get(`/api/v0/digest/${teamId}`, { headers })).json()) as Digest;

  await page.goto('/dashboard/settings/digest');
  // On for the demo admin, by e-mail and Slack DM, Mondays at 09:00.
  const email = page.getByRole('switch', { name: /E-mail me the weekly digest/ });
  await expect(email).toBeChecked({ timeout: 30_000 });
  await expect(page.getByRole('switch', { name: /Slack DM/ })).toBeChecked();
  await expect(page.getByTestId('digest-next')).toHaveText(/^Next digest: Monday,? \d+ \w+ \d{4},? 09:00/);

  // The preview: the last whole week, its numbers as the API answers them.
  await expect(
    page.getByText(`${short(digest.week.start)} – ${short(digest.week.end)} ${digest.week.end.slice(0, 4)}`),
  ).toBeVisible();
  const numbers = page.getByRole('region', { name: 'The week in numbers' });
  for (const n of digest.numbers) {
    const card = numbers.getByRole('group', { name: n.name, exact: true });
    await expect(card).toContainText(n.value.toLocaleString('en-US'));
    await expect(card).toContainText(`vs ${n.previous.toLocaleString('en-US')} the week before`);
  }
  await expect(page.getByRole('link', { name: `New: ${digest.members.new.count}` })).toBeVisible();

  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page, 'main')).toEqual([]);

  // The week before, and back.
  const before = (await (
    await request.get(`/api/v0/digest/${teamId}?week=${shiftDay(digest.week.start, -7)}`, { headers })
  ).json()) as Digest;
  await page.getByRole('button', { name: 'The week before' }).click();
  await expect(
    page.getByText(`${short(before.week.start)} – ${short(before.week.end)} ${before.week.end.slice(0, 4)}`),
  ).toBeVisible();
  await expect(numbers.getByRole('group', { name: 'Messages', exact: true })).toContainText(
    before.numbers.find((n) => n.name === 'Messages')!.value.toLocaleString('en-US'),
  );

  // Turning the e-mail off and on again is saved for this admin.
  await email.click();
  await expect(email).not.toBeChecked();
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v0/digest/settings/${teamId}`, { headers })).json()) as {
            email: boolean;
          }
        ).email,
    )
    .toBe(false);
  await email.click();
  await expect(email).toBeChecked();
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/v0/digest/settings/${teamId}`, { headers })).json()) as {
            email: boolean;
          }
        ).email,
    )
    .toBe(true);

  // The Slipping link opens Members filtered to that level.
  await page.getByRole('link', { name: /^Slipping: \d+$/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/members\?level=slipping$/);
  await expect(page.getByText('Slipping', { exact: false }).first()).toBeVisible();
  expect(errors).toEqual([]);
});

function shiftDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

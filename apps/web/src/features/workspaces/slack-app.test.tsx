import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { slackManifestResponse, type SlackManifestResponse } from '@flywheel/shared/workspace';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';

const manifest = {
  display_information: { name: 'Flywheel' },
  oauth_config: { scopes: { bot: ['chat:write'] } },
};
const answer = (setup: Partial<SlackManifestResponse['setup']> = {}): SlackManifestResponse => ({
  manifest,
  create_url: `https://api.slack.com/apps?new_app=1&manifest_json=${encodeURIComponent(JSON.stringify(manifest))}`,
  scopes: {
    bot: [
      { scope: 'chat:write', reason: 'Send messages as the bot' },
      { scope: 'pins:read', reason: 'Follow pins and unpins in channels' },
    ],
    user: [{ scope: 'chat:write', reason: 'Send messages and replies as the admin' }],
  },
  setup: {
    mode: 'demo',
    public_url: 'https://community.example.org',
    credentials: [
      {
        name: 'PUBLIC_URL',
        set: true,
        required: true,
        what: 'This installation’s address',
        where: 'Your own',
      },
      {
        name: 'SLACK_CLIENT_ID',
        set: false,
        required: true,
        what: 'Identifies the app',
        where: 'Basic Information → App Credentials → Client ID',
      },
    ],
    ...setup,
  },
});

function setup(body: SlackManifestResponse, workspaces = true) {
  seedSession();
  return mockApi({
    'GET /auth/me': { body: { ...loginResponse(workspaces ? {} : { workspaces: [] }), token: undefined } },
    'GET /slack/manifest': reply(slackManifestResponse, body),
  });
}

describe('/dashboard/slack-app: Create your Slack app', () => {
  it('opens Slack with the manifest filled in, lists the credentials in order with their status, and the scopes with why', async () => {
    setup(answer(), false);
    renderApp('/dashboard/slack-app');
    expect(
      await screen.findByRole('heading', { name: 'Create your Slack app' }, { timeout: 8000 }),
    ).toBeVisible();
    expect(screen.getByText('You are on the demo workspace')).toBeInTheDocument();
    const create = screen.getByRole('link', { name: /Create the app on Slack/ });
    expect(create).toHaveAttribute('href', answer().create_url);
    expect(create).toHaveAttribute('target', '_blank');
    expect(create.getAttribute('rel')).toContain('noopener');
    const rows = within(screen.getByRole('table', { name: 'Credentials' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['PUBLIC_URL', 'This installation’s address', 'Your own', 'Set'],
      ['SLACK_CLIENT_ID', 'Identifies the app', 'Basic Information → App Credentials → Client ID', 'Not set'],
    ]);
    // Not ready: installing waits for the credentials.
    expect(screen.getByRole('button', { name: 'Add to Slack' })).toBeDisabled();
    const bot = screen.getByRole('table', { name: 'Bot scopes' });
    expect(within(bot).getByText('pins:read')).toBeInTheDocument();
    expect(within(bot).getByText('Follow pins and unpins in channels')).toBeInTheDocument();
    // The install asks for the bot's scopes; the user scopes only at Add as Admin.
    expect(screen.getByText(/only then does\s+Slack ask you for the Send as Admin scopes/)).toBeVisible();
    expect(screen.getByText('Asked at install, for the bot.')).toBeVisible();
    await userEvent.click(screen.getByRole('tab', { name: 'Send as Admin (1)' }));
    const user = screen.getByRole('table', { name: 'Admin scopes' });
    expect(within(user).getByText('Send messages and replies as the admin')).toBeVisible();
    expect(screen.getByText(/^Asked only when an admin chooses Add as Admin/)).toBeVisible();
  });

  it('with every credential set on a real Slack app, Add to Slack is offered', async () => {
    setup(
      answer({
        mode: 'slack',
        credentials: [
          { name: 'PUBLIC_URL', set: true, required: true, what: 'a', where: 'b' },
          { name: 'SLACK_CLIENT_ID', set: true, required: true, what: 'c', where: 'd' },
        ],
      }),
    );
    renderApp('/dashboard/slack-app');
    expect(await screen.findByRole('button', { name: 'Add to Slack' }, { timeout: 8000 })).toBeEnabled();
    expect(screen.queryByText('You are on the demo workspace')).toBeNull();
  });

  it('the create-workspace page links to it', async () => {
    setup(answer(), false);
    renderApp('/dashboard/createdashboard');
    expect(
      await screen.findByRole('link', { name: 'Create your Slack app' }, { timeout: 8000 }),
    ).toHaveAttribute('href', '/dashboard/slack-app');
  });
});

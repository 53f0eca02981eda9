import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  apiKeysResponse,
  createApiKeyResponse,
  teamResponse,
  type ApiKey,
  type Role,
  type TeamResponse,
} from '@flywheel/shared/roles';
import { membersDataResponse } from '@flywheel/shared/members';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { WORKSPACES, loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { MEMBERS, workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const TEAM: TeamResponse = {
  admins: [
    {
      user_id: 'u1',
      username: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'owner',
      added_at: '2026-01-02T10:00:00Z',
    },
    {
      user_id: 'u2',
      username: 'Grace Hopper',
      email: 'grace@example.com',
      role: 'viewer',
      added_at: '2026-02-03T10:00:00Z',
    },
  ],
  invitations: [
    {
      email: 'alan@example.com',
      role: 'editor',
      invited_by: 'ada@example.com',
      created_at: '2026-11-20T10:00:00Z',
      expires_at: '2026-12-04T10:00:00Z',
    },
  ],
};
const KEY: ApiKey = {
  id: 'k1',
  name: 'Weekly report',
  scope: 'read',
  prefix: 'fwk_abcdef',
  created_by: 'ada@example.com',
  created_at: '2026-11-01T10:00:00Z',
  last_used_at: null,
};
const SECRET = 'fwk_abcdefSECRETSECRETSECRETSECRETSECRETSECRET';

/** A session (and /auth/me) whose current workspace T001 has this role. */
function as(role: Role, extra: Record<string, unknown> = {}) {
  const workspaces = WORKSPACES.map((w) => (w.team_id === 'T001' ? { ...w, role } : w));
  seedSession({ workspace: workspaces });
  return mockApi({
    'GET /auth/me': { body: { ...loginResponse({ workspaces }), token: undefined } },
    ...workspaceDataMocks('T001'),
    'GET /workspaces/team/T001': reply(teamResponse, TEAM),
    'GET /apikeys/T001': reply(apiKeysResponse, { data: [KEY] }),
    ...(extra as object),
  });
}

describe('Settings', () => {
  it('is linked from the sidebar and opens on the Team tab, with the tabs from its list', async () => {
    as('owner');
    const { user, location } = renderApp('/dashboard/home');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard/settings/team'));
    expect(await screen.findByRole('tab', { name: 'Team' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Team',
      'API keys',
      'Audit log',
      'Weekly digest',
      'Webhooks',
    ]);
  });

  it('Team: an Owner sees every admin with a role to change, removes with confirmation, and the invitations', async () => {
    const api = as('owner', {
      'POST /workspaces/setrole': { body: { message: 'Role changed.' } },
      'POST /workspaces/removeadmin': { body: { message: 'Admin removed.' } },
    });
    const { user } = renderApp('/dashboard/settings/team');
    const table = (await screen.findByText('grace@example.com')).closest('table')!;
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('alan@example.com')).toBeInTheDocument();
    // The Team tab's own button, beside the top bar's.
    expect(screen.getAllByRole('button', { name: 'Invite an admin' })).toHaveLength(2);

    await user.click(screen.getByLabelText('Role of grace@example.com'));
    await user.click(await screen.findByRole('option', { name: 'Editor' }));
    await waitFor(() => expect(api.callsTo('POST', '/workspaces/setrole')).toHaveLength(1));
    expect(api.callsTo('POST', '/workspaces/setrole')[0]?.body).toEqual({
      team_id: 'T001',
      user_id: 'u2',
      role: 'editor',
    });

    await user.click(screen.getByRole('button', { name: 'Remove grace@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admin?' });
    expect(api.callsTo('POST', '/workspaces/removeadmin')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/workspaces/removeadmin')[0]?.body).toEqual({
        team_id: 'T001',
        user_id: 'u2',
      }),
    );
  });

  it('Team: the invitation carries the role picked', async () => {
    const api = as('owner', {
      'POST /workspaces/inviteadmin': {
        status: 201,
        body: { message: 'Invitation sent.', expires_at: '2026-12-11T00:00:00Z' },
      },
    });
    const { user } = renderApp('/dashboard/settings/team');
    await screen.findByText('grace@example.com');
    await user.click(screen.getAllByRole('button', { name: 'Invite an admin' }).at(-1)!);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Email'), 'new@example.com');
    await user.click(within(dialog).getByLabelText('Role'));
    await user.click(await screen.findByRole('option', { name: /^Viewer/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/workspaces/inviteadmin')[0]?.body).toEqual({
        team_id: 'T001',
        email: 'new@example.com',
        role: 'viewer',
      }),
    );
  });

  it('Team is read-only for a Viewer', async () => {
    as('viewer');
    renderApp('/dashboard/settings/team');
    expect(await screen.findByText('grace@example.com')).toBeInTheDocument();
    expect(screen.getByText('Only an Owner can change roles, remove admins or invite.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Role of/)).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove / })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Invite an admin' })).toBeNull();
  });

  it('API keys: create shows the key once with a copy button; the list; revoke asks first', async () => {
    const api = as('owner', {
      'POST /apikeys/create': {
        status: 201,
        ...reply(createApiKeyResponse, {
          key: { ...KEY, id: 'k2', name: 'Zapier', scope: 'act' },
          secret: SECRET,
        }),
      },
      'POST /apikeys/revoke': { body: { message: 'API key revoked.' } },
    });
    const { user } = renderApp('/dashboard/settings/api-keys');
    const row = (await screen.findByText('Weekly report')).closest('tr')!;
    expect(within(row).getByText('Read')).toBeInTheDocument();
    expect(within(row).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Never')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create an API key' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Zapier');
    await user.click(within(dialog).getByRole('radio', { name: /^Read and act/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText(SECRET)).toBeInTheDocument();
    expect(within(dialog).getByText(/you won't see it again/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/apikeys/create')[0]?.body).toEqual({
      team_id: 'T001',
      name: 'Zapier',
      scope: 'act',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Revoke Weekly report' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke API key?' });
    expect(api.callsTo('POST', '/apikeys/revoke')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/apikeys/revoke')[0]?.body).toEqual({ team_id: 'T001', id: 'k1' }),
    );
  });

  it('API keys: a Viewer sees the list but cannot create or revoke', async () => {
    as('viewer');
    renderApp('/dashboard/settings/api-keys');
    expect(await screen.findByText('Weekly report')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create API key' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Revoke/ })).toBeNull();
  });
});

describe('a Viewer in the rest of the app', () => {
  const members = {
    'POST /members/getmembersdata': reply(membersDataResponse, {
      data: MEMBERS,
      total: 4,
      page: 1,
      page_size: 5,
    }),
  };

  it("cannot send: Members' Send Message is disabled, saying why", async () => {
    as('viewer', members);
    const { user } = renderApp('/dashboard/members');
    const send = await screen.findByRole('button', { name: 'Send Message' }, { timeout: 8000 });
    expect(send).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add Tag' })).toBeDisabled();
    await user.hover(send.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/Viewers can't send.*Editor role/);
    // Above the page, a line says what the role allows, before anything is clicked.
    expect(screen.getByRole('note')).toHaveTextContent(
      /You are a Viewer in .*: you can read every dashboard/,
    );
  });

  it('an Editor can send', async () => {
    as('editor', members);
    renderApp('/dashboard/members');
    expect(await screen.findByRole('button', { name: 'Send Message' }, { timeout: 8000 })).toBeEnabled();
    expect(screen.queryByText(/You are a Viewer/)).toBeNull();
  });
});

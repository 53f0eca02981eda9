import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  actionHistoryResponse,
  pauseWorkflowResponse,
  triggerHistoryResponse,
  WORKFLOW_TEXTS,
  workflowsListResponse,
  type ActionHistoryRow,
  type WorkflowRow,
} from '@flywheel/shared/workflows';
import { messageResponse } from '@flywheel/shared/http';
import { reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { formatDateTime } from '../../lib/format-date.ts';

const me = { body: { ...loginResponse(), token: undefined } };

function workflow(id: number, extra: Partial<WorkflowRow> = {}): WorkflowRow {
  return {
    workflow_id: id,
    workflow_name: `Flow ${id}`,
    sender: 'b',
    sender_label: 'Bot',
    admin_user: null,
    trigger_type: 'workspace_join',
    type_label: 'Workspace Join',
    status: true,
    channel: null,
    channel_name: null,
    days: null,
    trigger_at: null,
    trigger_summary: 'When a member joins the workspace',
    tags: [],
    segments: [],
    tasks: [
      {
        task_id: id * 10 + 1,
        position: 0,
        details: { type: 'message', msgTitle: 'Welcome', delay: null },
        form_id: null,
        summary: 'Send the message "Welcome" with no delay',
        sent: 0,
        pending: 0,
      },
      {
        task_id: id * 10 + 2,
        position: 1,
        details: {
          type: 'form',
          formTitle: 'Check-in',
          delay: { delay_unit: 'days', delay_in_secs: 172_800 },
        },
        form_id: 40,
        summary: 'Send the form "Check-in" after 2 day delay',
        sent: 0,
        pending: 0,
      },
    ],
    triggered: 0,
    timezone: 'Europe/Berlin',
    created_at: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

const LIST = [
  workflow(2, { workflow_name: 'Onboarding' }),
  workflow(5, {
    workflow_name: 'Launch day',
    trigger_type: 'time',
    type_label: 'Time Trigger',
    sender: 'a',
    sender_label: 'Ada Lovelace',
    admin_user: 'U001',
    trigger_at: { date: '05-12-2026', time: '09:30' },
    trigger_summary: 'At 05-12-2026 09:30 (Europe/Berlin) for Tags: vip',
  }),
  workflow(3, { workflow_name: 'Quiet members', status: false, type_label: 'Member Inactivity' }),
];

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /workflows/getworkflows/T001': reply(workflowsListResponse, { data: LIST }),
    ...extra,
  });
}

const names = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest('tr')!;

async function openList() {
  const view = renderApp('/dashboard/workflows');
  const table = await screen.findByRole('table', { name: 'Workflows' }, { timeout: 8000 });
  await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
  return { ...view, table };
}

afterEach(() => vi.unstubAllGlobals());

describe('Workflows list', () => {
  it('no workflows: the title, the create button and the empty text', async () => {
    setup({ 'GET /workflows/getworkflows/T001': reply(workflowsListResponse, { data: [] }) });
    renderApp('/dashboard/workflows');
    expect(await screen.findByText(WORKFLOW_TEXTS.empty, {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Workflows' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create New WorkFlow' })).toHaveAttribute(
      'href',
      '/dashboard/workflows/create-new-workflow',
    );
  });

  it('rows newest first (id descending) with Name, Sender, Type, status and actions', async () => {
    setup();
    const { table } = await openList();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Sender', 'Type', 'Status', 'Actions']);
    expect(names(table)).toEqual(['Launch day', 'Quiet members', 'Onboarding']);
    const launch = rowOf(table, 'Launch day');
    expect(within(launch).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(launch).getByText('Time Trigger')).toBeInTheDocument();
    expect(within(launch).getByText('Active')).toBeInTheDocument();
    expect(within(rowOf(table, 'Quiet members')).getByText('Inactive')).toBeInTheDocument();
  });

  it('Stop then Activate: the status changes in place with the documented toasts', async () => {
    const api = setup({
      'PATCH /workflows/pauseworkflow': (body) => {
        const b = body as { workflow_id: number; status: boolean };
        return reply(pauseWorkflowResponse, {
          message: 'ok',
          data: { workflow_id: b.workflow_id, status: b.status },
        });
      },
    });
    const { table, user } = await openList();
    await user.click(within(rowOf(table, 'Onboarding')).getByRole('button', { name: 'Stop Onboarding' }));
    expect(await screen.findByText(WORKFLOW_TEXTS.stopped)).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(table, 'Onboarding')).getByText('Inactive')).toBeInTheDocument());
    expect(api.callsTo('PATCH', '/workflows/pauseworkflow')[0]!.body).toEqual({
      team_id: 'T001',
      workflow_id: 2,
      status: false,
    });
    await user.click(within(rowOf(table, 'Onboarding')).getByRole('button', { name: 'Activate Onboarding' }));
    expect(await screen.findByText(WORKFLOW_TEXTS.started)).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(table, 'Onboarding')).getByText('Active')).toBeInTheDocument());
  });

  it('a failed pause is a toast headed Error, and the status stays', async () => {
    setup({
      'PATCH /workflows/pauseworkflow': {
        status: 400,
        body: { statusCode: 400, code: 'BAD_REQUEST', message: 'Workflow not found' },
      },
    });
    const { table, user } = await openList();
    await user.click(within(rowOf(table, 'Onboarding')).getByRole('button', { name: 'Stop Onboarding' }));
    expect(await screen.findByText('Workflow not found')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(within(rowOf(table, 'Onboarding')).getByText('Active')).toBeInTheDocument();
  });

  it("a time trigger's Stop is disabled with the product's tooltip", async () => {
    setup();
    const { table, user } = await openList();
    const stop = within(rowOf(table, 'Launch day')).getByRole('button', { name: 'Stop Launch day' });
    expect(stop).toBeDisabled();
    await user.hover(stop.parentElement!);
    expect(await screen.findByText(WORKFLOW_TEXTS.cannotStopTime)).toBeInTheDocument();
  });

  it('delete asks first, then removes the row with its toast', async () => {
    const api = setup({ 'DELETE /workflows/T001/3': reply(messageResponse, { message: 'deleted' }) });
    const { table, user } = await openList();
    await user.click(
      within(rowOf(table, 'Quiet members')).getByRole('button', { name: 'Delete Quiet members' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete workflow' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('DELETE', '/workflows/T001/3')).toHaveLength(0);
    await user.click(
      within(rowOf(table, 'Quiet members')).getByRole('button', { name: 'Delete Quiet members' }),
    );
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete workflow' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText(WORKFLOW_TEXTS.deleted)).toBeInTheDocument();
    await waitFor(() => expect(names(table)).toEqual(['Launch day', 'Onboarding']));
    expect(api.callsTo('DELETE', '/workflows/T001/3')).toHaveLength(1);
  });

  it('the details modal: name, trigger card and one card per task, each linking to its history', async () => {
    const long = 'A'.repeat(80);
    setup({
      'GET /workflows/getworkflows/T001': reply(workflowsListResponse, {
        data: [
          workflow(2, {
            workflow_name: 'Onboarding',
            tasks: [
              {
                ...workflow(2).tasks[0]!,
                details: { type: 'message', msgTitle: long, delay: null },
                summary: `Send the message "${'A'.repeat(72)}..." with no delay`,
              },
              workflow(2).tasks[1]!,
            ],
          }),
        ],
      }),
    });
    const { table, user } = await openList();
    await user.click(
      within(rowOf(table, 'Onboarding')).getByRole('button', { name: 'View details of Onboarding' }),
    );
    const dialog = await screen.findByRole('dialog', { name: WORKFLOW_TEXTS.detailsTitle });
    expect(within(dialog).getByText('Onboarding')).toBeInTheDocument();
    expect(within(dialog).getByText('When a member joins the workspace')).toBeInTheDocument();
    expect(
      within(dialog).getByText(`Send the message "${'A'.repeat(72)}..." with no delay`),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('Send the form "Check-in" after 2 day delay')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Trigger details' })).toHaveAttribute(
      'href',
      '/dashboard/workflows/details?workflowid=2&type=trigger&name=Onboarding',
    );
    expect(within(dialog).getByRole('link', { name: 'Details of step 2' })).toHaveAttribute(
      'href',
      '/dashboard/workflows/details?workflowid=2&type=action&actiontype=form&id=22&name=Check-in',
    );
  });
});

const historyRow = (id: number, extra: Partial<ActionHistoryRow> = {}): ActionHistoryRow => ({
  id,
  status: 'sent',
  sent_at: `2026-11-2${id}T10:00:00.000Z`,
  due_at: `2026-11-2${id}T10:00:00.000Z`,
  triggered_for: `Member ${id}`,
  member_id: `U00${id}`,
  sent_to: `Member ${id}`,
  receipt_id: id,
  form_id: 40,
  form_instance_id: 400 + id,
  error: null,
  ...extra,
});

describe('Workflow details page', () => {
  it.each([
    '/dashboard/workflows/details',
    '/dashboard/workflows/details?type=trigger&name=x',
    '/dashboard/workflows/details?workflowid=abc&type=trigger',
    '/dashboard/workflows/details?workflowid=2&type=bogus',
    '/dashboard/workflows/details?workflowid=2&type=action&actiontype=message',
  ])('%s goes to the not-found page', async (path) => {
    setup();
    const { location } = renderApp(path);
    await waitFor(() => expect(location().pathname).toBe('/404'), { timeout: 8000 });
    expect(await screen.findByText("The page you're looking for was not found.")).toBeInTheDocument();
  });

  it('a workflow the server does not know goes to the not-found page', async () => {
    setup({
      'GET /workflows/gettriggerinfo/T001/999': {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'No such workflow' },
      },
    });
    const { location } = renderApp('/dashboard/workflows/details?workflowid=999&type=trigger&name=x');
    await waitFor(() => expect(location().pathname).toBe('/404'), { timeout: 8000 });
  });

  it('trigger history: title, columns, newest first, and the search box', async () => {
    setup({
      'GET /workflows/gettriggerinfo/T001/2': reply(triggerHistoryResponse, {
        data: {
          workflow_name: 'Onboarding',
          rows: [
            {
              id: 1,
              trigger_time: '2026-11-20T08:00:00.000Z',
              triggered_for: 'Ada Lovelace',
              member_id: 'U001',
            },
            {
              id: 2,
              trigger_time: '2026-11-22T08:00:00.000Z',
              triggered_for: 'Alan Turing',
              member_id: 'U002',
            },
            {
              id: 3,
              trigger_time: '2026-11-21T08:00:00.000Z',
              triggered_for: 'Grace Hopper',
              member_id: 'U003',
            },
          ],
        },
      }),
    });
    const { user } = renderApp('/dashboard/workflows/details?workflowid=2&type=trigger&name=Onboarding');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Trigger details for the workflow "Onboarding"' },
        { timeout: 8000 },
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Trigger details' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Trigger Time', 'Triggered For']);
    const firsts = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(firsts()).toEqual(['Alan Turing', 'Grace Hopper', 'Ada Lovelace']);
    expect(within(table).getByText(formatDateTime('2026-11-22T08:00:00.000Z'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'grace');
    await waitFor(() => expect(firsts()).toEqual(['Grace Hopper']));
    await user.clear(screen.getByRole('textbox', { name: 'Search' }));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'nobody');
    expect(await screen.findByText(WORKFLOW_TEXTS.noData)).toBeInTheDocument();
  });

  it('trigger history empty: No Data found!', async () => {
    setup({
      'GET /workflows/gettriggerinfo/T001/2': reply(triggerHistoryResponse, {
        data: { workflow_name: 'Onboarding', rows: [] },
      }),
    });
    renderApp('/dashboard/workflows/details?workflowid=2&type=trigger&name=Onboarding');
    expect(await screen.findByText(WORKFLOW_TEXTS.noData, {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('a message action: Sent At, Triggered For, Sent To and status, newest first; no form actions', async () => {
    setup({
      'GET /workflows/getuserdetail/T001/2/21': reply(actionHistoryResponse, {
        data: {
          workflow_name: 'Onboarding',
          task: workflow(2).tasks[0]!,
          rows: [
            historyRow(1, { form_id: null, form_instance_id: null }),
            historyRow(3, { status: 'pending', form_id: null, form_instance_id: null }),
          ],
        },
      }),
    });
    renderApp('/dashboard/workflows/details?workflowid=2&type=action&actiontype=message&id=21&name=Welcome');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Action details for the message "Welcome"' },
        { timeout: 8000 },
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Action details' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sent At', 'Triggered For', 'Sent To', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Pending')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Sent')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Export Details/ })).toBeNull();
  });

  it("a form action: 'View Details' opens the instance in a new tab, 'Export Details' downloads 'Form details'", async () => {
    const api = setup({
      'GET /workflows/getuserdetail/T001/2/22': reply(actionHistoryResponse, {
        data: { workflow_name: 'Onboarding', task: workflow(2).tasks[1]!, rows: [historyRow(1)] },
      }),
      'POST /actions/exportformresponse': { body: 'name\n' },
    });
    const dl = captureDownloads();
    const { user } = renderApp(
      '/dashboard/workflows/details?workflowid=2&type=action&actiontype=form&id=22&name=Check-in',
    );
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Action details for the message "Check-in"' },
        { timeout: 8000 },
      ),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Action details' });
    const view = await within(table).findByRole('link', { name: /View Details of Member 1/ });
    expect(view).toHaveAttribute('target', '_blank');
    expect(view.getAttribute('href')).toMatch(
      /^\/dashboard\/actions\/form-instances\/40\/401\/.+\?name=Check-in$/,
    );
    await user.click(within(table).getByRole('button', { name: /Export Details of Member 1/ }));
    await waitFor(() => expect(dl.saved.map((f) => f.name)).toEqual(['Form details.csv']));
    expect(api.callsTo('POST', '/actions/exportformresponse')[0]!.body).toEqual({
      team_id: 'T001',
      master_form_id: 40,
      form_id: 401,
    });
  });
});

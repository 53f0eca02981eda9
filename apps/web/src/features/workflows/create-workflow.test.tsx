import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../testing/editor-layout.ts';
import { wallClock } from '@flywheel/shared/clock';
import { LEVEL_RULES } from '@flywheel/shared/levels';
import { authorizedAdminSchema, dataOf } from '@flywheel/shared/directory';
import { bucketsResponse } from '@flywheel/shared/buckets';
import {
  createWorkflowBody,
  WORKFLOW_TEXTS,
  workflowResponse,
  workflowsListResponse,
} from '@flywheel/shared/workflows';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

type User = ReturnType<typeof renderApp>['user'];
const me = { body: { ...loginResponse(), token: undefined } };
const PATH = '/dashboard/workflows/create-new-workflow';

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /bucket/getbuckets/T001': reply(bucketsResponse, { data: [] }),
    'GET /workflows/getworkflows/T001': reply(workflowsListResponse, { data: [] }),
    ...extra,
  });
}

async function open() {
  const view = renderApp(PATH);
  await screen.findByRole('heading', { name: WORKFLOW_TEXTS.createTitle }, { timeout: 8000 });
  return view;
}

const dialog = (name: string) => screen.findByRole('dialog', { name });
const submit = (d: HTMLElement) => within(d).getByRole('button', { name: 'Submit' });
/** A field's problem shows under it once it is left. */
const leave = (el: HTMLElement) => fireEvent.focusOut(el);

async function choose(user: User, d: HTMLElement, label: string, option: string) {
  await user.click(within(d).getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Puts `text` in an empty field as one input (a paste). */
async function fill(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function openTrigger(user: User) {
  await user.click(screen.getByRole('button', { name: WORKFLOW_TEXTS.initializeCard }));
  return dialog(WORKFLOW_TEXTS.initializeDialog);
}

async function joinTrigger(user: User, name = 'Welcome flow') {
  const d = await openTrigger(user);
  await fill(user, within(d).getByLabelText('Workflow name'), name);
  await user.click(within(d).getByRole('radio', { name: 'Bot' }));
  await choose(user, d, 'Trigger type', 'Workspace Join');
  await user.click(submit(d));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

async function addDelay(user: User, duration: string | null, unit = 'Days') {
  await user.click(screen.getByRole('button', { name: 'Add delay' }));
  const d = await dialog(WORKFLOW_TEXTS.delayDialog);
  if (duration === null) await user.click(within(d).getByRole('radio', { name: 'No Delay' }));
  else {
    await user.click(within(d).getByRole('radio', { name: 'Delay' }));
    await choose(user, d, 'Unit', unit);
    await user.type(within(d).getByLabelText('Duration'), duration);
  }
  await user.click(submit(d));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

async function addMessage(user: User, title: string, text = 'Hello there') {
  await user.click(screen.getByRole('button', { name: 'Add action' }));
  const d = await dialog(WORKFLOW_TEXTS.actionDialog);
  await user.click(within(d).getByLabelText('Send Message'));
  await user.type(within(d).getByLabelText('Message title'), title);
  await user.click(await within(d).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
  await user.paste(text);
  await user.click(within(d).getByRole('checkbox', { name: /Users in criteria/ }));
  await user.click(submit(d));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

async function addForm(user: User, title: string) {
  await user.click(screen.getByRole('button', { name: 'Add action' }));
  const d = await dialog(WORKFLOW_TEXTS.actionDialog);
  await user.click(within(d).getByLabelText('Send Form'));
  // Pasted, not typed key by key: each key re-renders the page with every card (the 11-card test typed ~300).
  await fill(user, within(d).getByLabelText('Form title'), title);
  await fill(user, within(d).getByLabelText('Form Description'), 'How is it going?');
  await fill(user, within(d).getByLabelText('Question 1 title'), 'Your first week?');
  await user.click(within(d).getByRole('checkbox', { name: /Users in criteria/ }));
  await user.click(submit(d));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/** DD/MM/YYYY and HH:MM `ms` from now in Europe/Berlin (the seeded workspace's timezone). */
function berlin(ms: number) {
  const w = wallClock(Date.now() + ms, 'Europe/Berlin');
  const two = (n: number) => String(n).padStart(2, '0');
  return { date: `${two(w.day)}/${two(w.month)}/${w.year}`, time: `${two(w.hour)}:${two(w.minute)}` };
}

// jsdom has no document.fonts; Mantine's autosizing Textarea (the form's description) listens to it.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });

afterEach(() => vi.unstubAllGlobals());

describe("'Initialize the Workflow' dialog", () => {
  it('name, sender and type: each problem shows under its field once left; Submit waits for all', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    expect(submit(d)).toBeDisabled();
    // Nothing is shown before a field is touched.
    expect(within(d).queryByText(WORKFLOW_TEXTS.nameEmpty)).toBeNull();
    const name = within(d).getByLabelText('Workflow name');
    await user.type(name, '   ');
    leave(name);
    expect(await within(d).findByText(WORKFLOW_TEXTS.nameEmpty)).toBeInTheDocument();
    await user.type(name, 'x'.repeat(81));
    expect(await within(d).findByText(WORKFLOW_TEXTS.nameTooLong)).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Welcome flow');
    expect(within(d).queryByText(WORKFLOW_TEXTS.nameTooLong)).toBeNull();

    leave(within(d).getByRole('radio', { name: 'Bot' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseSender)).toBeInTheDocument();
    leave(within(d).getByLabelText('Trigger type', { selector: 'input' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseType)).toBeInTheDocument();
    await user.click(within(d).getByRole('radio', { name: 'Bot' }));
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseSender)).toBeNull();
    expect(submit(d)).toBeDisabled();
    await choose(user, d, 'Trigger type', 'Workspace Join');
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseType)).toBeNull();
    expect(submit(d)).toBeEnabled();
    await user.click(within(d).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Cancel adds nothing.
    expect(screen.getByRole('button', { name: WORKFLOW_TEXTS.initializeCard })).toBeInTheDocument();
  });

  it('admin sender with no admin: the admin problem', async () => {
    setup({ 'GET /getauthorizedadmins/T001/u1': reply(dataOf(authorizedAdminSchema), { data: [] }) });
    const { user } = await open();
    const d = await openTrigger(user);
    await user.click(within(d).getByRole('radio', { name: 'Admin' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseAdmin)).toBeInTheDocument();
  });

  it('Channel Join needs its channel', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    await user.type(within(d).getByLabelText('Workflow name'), 'Channel hello');
    await user.click(within(d).getByRole('radio', { name: 'Bot' }));
    await choose(user, d, 'Trigger type', 'Channel Join');
    leave(within(d).getByLabelText('Channel', { selector: 'input' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseChannel)).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await choose(user, d, 'Channel', '#general');
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseChannel)).toBeNull();
    expect(submit(d)).toBeEnabled();
  });

  it('Member Level: needs its level (Newcomer is not offered: Workspace Join is that trigger); the rule shows', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    await user.type(within(d).getByLabelText('Workflow name'), 'Win them back');
    await user.click(within(d).getByRole('radio', { name: 'Bot' }));
    await choose(user, d, 'Trigger type', 'Member Level');
    leave(within(d).getByLabelText('Level', { selector: 'input' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseLevel)).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await user.click(within(d).getByLabelText('Level', { selector: 'input' }));
    expect(screen.queryByRole('option', { name: 'Newcomer' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Slipping' }));
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseLevel)).toBeNull();
    expect(within(d).getByText(LEVEL_RULES.slipping)).toBeInTheDocument();
    expect(submit(d)).toBeEnabled();
  });

  it('Member Activity: the Active/Inactive choice and the 0..365 days range', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    await user.type(within(d).getByLabelText('Workflow name'), 'Quiet ones');
    await user.click(within(d).getByRole('radio', { name: 'Bot' }));
    await choose(user, d, 'Trigger type', 'Member Activity');
    leave(within(d).getByRole('radio', { name: 'Active' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseActivity)).toBeInTheDocument();
    await user.click(within(d).getByRole('radio', { name: 'Inactive' }));
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseActivity)).toBeNull();
    const days = within(d).getByLabelText('Time range (days)');
    leave(days);
    expect(await within(d).findByText(WORKFLOW_TEXTS.daysEmpty)).toBeInTheDocument();
    await user.type(days, '366');
    expect(await within(d).findByText(WORKFLOW_TEXTS.daysRange)).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await user.clear(days);
    await user.type(days, '-1');
    expect(within(d).getByText(WORKFLOW_TEXTS.daysRange)).toBeInTheDocument();
    await user.clear(days);
    await user.type(days, '365');
    expect(within(d).queryByText(WORKFLOW_TEXTS.daysRange)).toBeNull();
    expect(submit(d)).toBeEnabled();
    await user.clear(days);
    await user.type(days, '0');
    expect(submit(d)).toBeEnabled();
  });

  it('Time Trigger: date and time missing, an invalid date, out of the 15 minutes..30 days range; hints show the bounds', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    await user.type(within(d).getByLabelText('Workflow name'), 'Launch day');
    await user.click(within(d).getByRole('radio', { name: 'Bot' }));
    await choose(user, d, 'Trigger type', 'Time Trigger');
    const date = within(d).getByLabelText('Date');
    const time = within(d).getByLabelText('Time');
    const soon = berlin(15 * 60_000 + 60_000);
    const last = berlin(30 * 86_400_000);
    expect(within(d).getByText(`From ${soon.date} to ${last.date}`)).toBeInTheDocument();
    leave(date);
    expect(await within(d).findByText(WORKFLOW_TEXTS.dateMissing)).toBeInTheDocument();
    await user.type(date, 'DD/MM/YYYY');
    expect(within(d).getByText(WORKFLOW_TEXTS.dateMissing)).toBeInTheDocument();
    await user.clear(date);
    await user.type(date, berlin(2 * 86_400_000).date);
    leave(time);
    expect(await within(d).findByText(WORKFLOW_TEXTS.timeMissing)).toBeInTheDocument();
    await user.type(time, '10:00');
    expect(within(d).queryByText(WORKFLOW_TEXTS.timeMissing)).toBeNull();
    await user.clear(date);
    await user.type(date, '31/02/2027');
    expect(await within(d).findByText(WORKFLOW_TEXTS.invalidDateTime)).toBeInTheDocument();
    await user.clear(date);
    await user.type(date, berlin(-86_400_000).date);
    expect(await within(d).findByText(WORKFLOW_TEXTS.invalidRange)).toBeInTheDocument();
    await user.clear(date);
    await user.type(date, berlin(31 * 86_400_000).date);
    expect(await within(d).findByText(WORKFLOW_TEXTS.invalidRange)).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await user.clear(date);
    await user.type(date, berlin(2 * 86_400_000).date);
    expect(within(d).queryByText(WORKFLOW_TEXTS.invalidRange)).toBeNull();
    expect(submit(d)).toBeEnabled();
  });

  it('tags chosen leave only Time Trigger; a member type disables the audience pickers', async () => {
    setup();
    const { user } = await open();
    const d = await openTrigger(user);
    await choose(user, d, 'Trigger type', 'Workspace Join');
    expect(within(d).getByLabelText('Tags', { selector: 'input' })).toBeDisabled();
    await choose(user, d, 'Trigger type', 'Time Trigger');
    await choose(user, d, 'Tags', 'vip');
    await user.click(within(d).getByLabelText('Trigger type', { selector: 'input' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Time Trigger']);
  });
});

describe("'Set Delay' and 'Create an Action' dialogs", () => {
  it('delay: type, unit, more than 0 and at most 43200 minutes / 720 hours / 30 days', async () => {
    setup();
    const { user } = await open();
    await joinTrigger(user);
    await user.click(screen.getByRole('button', { name: 'Add delay' }));
    const d = await dialog(WORKFLOW_TEXTS.delayDialog);
    expect(submit(d)).toBeDisabled();
    leave(within(d).getByRole('radio', { name: 'No Delay' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseDelayType)).toBeInTheDocument();
    await user.click(within(d).getByRole('radio', { name: 'Delay' }));
    leave(within(d).getByLabelText('Unit', { selector: 'input' }));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseDelayUnit)).toBeInTheDocument();
    const duration = within(d).getByLabelText('Duration');
    await user.type(duration, '0');
    expect(await within(d).findByText(WORKFLOW_TEXTS.delayPositive)).toBeInTheDocument();
    await user.clear(duration);
    await user.type(duration, '721');
    await choose(user, d, 'Unit', 'Hours');
    expect(await within(d).findByText(WORKFLOW_TEXTS.delayMax('hours'))).toBeInTheDocument();
    await choose(user, d, 'Unit', 'Days');
    expect(await within(d).findByText(WORKFLOW_TEXTS.delayMax('days'))).toBeInTheDocument();
    await user.clear(duration);
    await user.type(duration, '43201');
    await choose(user, d, 'Unit', 'Minutes');
    expect(await within(d).findByText(WORKFLOW_TEXTS.delayMax('minutes'))).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await user.clear(duration);
    await user.type(duration, '43200');
    expect(submit(d)).toBeEnabled();
    await user.click(within(d).getByRole('radio', { name: 'No Delay' }));
    expect(submit(d)).toBeEnabled();
  });

  it('message action: type, recipient, title and text problems', async () => {
    setup();
    const { user } = await open();
    await joinTrigger(user);
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    const d = await dialog(WORKFLOW_TEXTS.actionDialog);
    expect(submit(d)).toBeDisabled();
    leave(within(d).getByLabelText('Send Message'));
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseActionType)).toBeInTheDocument();
    const everyone = within(d).getByRole('checkbox', { name: 'All workspace members' });
    await user.click(everyone);
    await user.click(everyone);
    expect(await within(d).findByText(WORKFLOW_TEXTS.chooseRecipient)).toBeInTheDocument();
    await user.click(within(d).getByLabelText('Send Message'));
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseActionType)).toBeNull();
    const title = within(d).getByLabelText('Message title');
    await user.type(title, ' ');
    leave(title);
    expect(await within(d).findByText(WORKFLOW_TEXTS.messageTitleEmpty)).toBeInTheDocument();
    await user.type(title, 'x'.repeat(151));
    expect(await within(d).findByText(WORKFLOW_TEXTS.messageTitleTooLong)).toBeInTheDocument();
    await user.clear(title);
    await user.type(title, 'Welcome');
    const editor = await within(d).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 });
    leave(editor);
    expect(await within(d).findByText(WORKFLOW_TEXTS.messageEmpty)).toBeInTheDocument();
    await user.click(editor);
    await user.paste('Hello');
    await waitFor(() => expect(within(d).queryByText(WORKFLOW_TEXTS.messageEmpty)).toBeNull());
    expect(submit(d)).toBeDisabled();
    await user.click(within(d).getByRole('checkbox', { name: /Users in criteria/ }));
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseRecipient)).toBeNull();
    expect(submit(d)).toBeEnabled();
  });

  it('form action: title, description, question title and MCQ option problems; new questions are descriptive and mandatory', async () => {
    setup();
    const { user } = await open();
    await joinTrigger(user);
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    const d = await dialog(WORKFLOW_TEXTS.actionDialog);
    await user.click(within(d).getByLabelText('Send Form'));
    await user.click(within(d).getByRole('checkbox', { name: 'All workspace members' }));
    const title = within(d).getByLabelText('Form title');
    leave(title);
    expect(await within(d).findByText(WORKFLOW_TEXTS.formTitleEmpty)).toBeInTheDocument();
    await user.type(title, 'Check-in');
    const description = within(d).getByLabelText('Form Description');
    leave(description);
    expect(await within(d).findByText(WORKFLOW_TEXTS.formDescriptionEmpty)).toBeInTheDocument();
    await user.type(description, 'How is it going?');
    expect(within(d).getByLabelText('Question 1 type', { selector: 'input' })).toHaveValue('Descriptive');
    expect(within(d).getByRole('switch', { name: 'Optional' })).not.toBeChecked();
    // A form keeps at least one question.
    expect(within(d).getByRole('button', { name: 'Remove question 1' })).toBeDisabled();
    const question = within(d).getByLabelText('Question 1 title');
    leave(question);
    expect(await within(d).findByText(WORKFLOW_TEXTS.questionEmpty)).toBeInTheDocument();
    await user.type(question, 'Pick one');
    await choose(user, d, 'Question 1 type', 'Multiple choice');
    const option = within(d).getByLabelText('Question 1 option 1');
    leave(option);
    expect(await within(d).findByText(WORKFLOW_TEXTS.optionEmpty)).toBeInTheDocument();
    expect(submit(d)).toBeDisabled();
    await user.type(option, 'Good');
    await user.type(within(d).getByLabelText('Question 1 option 2'), 'Bad');
    expect(within(d).queryByText(WORKFLOW_TEXTS.optionEmpty)).toBeNull();
    expect(submit(d)).toBeEnabled();
  });

  it("a time trigger's action: no 'Users in criteria'; its tags are offered as recipients", async () => {
    setup();
    const { user } = await open();
    const t = await openTrigger(user);
    await user.type(within(t).getByLabelText('Workflow name'), 'Launch day');
    await user.click(within(t).getByRole('radio', { name: 'Bot' }));
    await choose(user, t, 'Trigger type', 'Time Trigger');
    const at = berlin(2 * 86_400_000);
    await user.type(within(t).getByLabelText('Date'), at.date);
    await user.type(within(t).getByLabelText('Time'), at.time);
    await choose(user, t, 'Tags', 'vip');
    await user.click(submit(t));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Add action' }));
    const d = await dialog(WORKFLOW_TEXTS.actionDialog);
    expect(within(d).queryByRole('checkbox', { name: /Users in criteria/ })).toBeNull();
    await choose(user, d, "The trigger's tags", 'vip');
    expect(within(d).queryByText(WORKFLOW_TEXTS.chooseRecipient)).toBeNull();
  });
});

describe('the card flow', () => {
  it('builds join → message → 2 days → form → 3 hours → message; Save only when it ends in an action; the payload', async () => {
    const api = setup({
      'POST /workflows/createworkflow': (body) => {
        const b = createWorkflowBody.parse(body);
        return {
          status: 201,
          ...reply(workflowResponse, {
            message: 'Workflow created successfully!',
            data: {
              workflow_id: 9,
              workflow_name: b.workflow_name,
              sender: 'b',
              sender_label: 'Bot',
              admin_user: null,
              trigger_type: b.trigger_type,
              type_label: 'Workspace Join',
              status: true,
              channel: null,
              channel_name: null,
              days: null,
              trigger_at: null,
              trigger_summary: 'When a member joins the workspace',
              tags: [],
              segments: [],
              tasks: [],
              triggered: 0,
              timezone: 'Europe/Berlin',
              created_at: '2026-11-20T10:00:00.000Z',
            },
          }),
        };
      },
    });
    const { user, location } = await open();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await joinTrigger(user);
    expect(save).toBeDisabled();
    await addMessage(user, 'Welcome', 'Hello and welcome');
    expect(save).toBeEnabled();
    await addDelay(user, '2', 'Days');
    expect(save).toBeDisabled();
    // After a delay only an action may follow.
    expect(screen.queryByRole('button', { name: 'Add delay' })).toBeNull();
    await addForm(user, 'Check-in');
    await addDelay(user, '3', 'Hours');
    await addMessage(user, 'How are you?', 'Tell us how it goes');
    expect(save).toBeEnabled();
    expect(screen.getByText('6 of 11 cards')).toBeInTheDocument();

    await user.click(save);
    expect(await screen.findByText(WORKFLOW_TEXTS.created)).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/workflows'));
    const calls = api.callsTo('POST', '/workflows/createworkflow');
    expect(calls).toHaveLength(1);
    const body = createWorkflowBody.parse(calls[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      workflow_name: 'Welcome flow',
      sender: 'bot',
      admin_user: null,
      trigger_type: 'workspace_join',
      channel: null,
      days: null,
      trigger_at: null,
      tags: [],
      segments: [],
    });
    expect(body.tasks.map((t) => [t.type, t.delay])).toEqual([
      ['message', null],
      ['form', { delay_unit: 'days', delay_in_secs: 172_800 }],
      ['message', { delay_unit: 'hours', delay_in_secs: 10_800 }],
    ]);
    expect(body.tasks[0]).toMatchObject({
      msgTitle: 'Welcome',
      text: 'Hello and welcome',
      sendToSelectedUsers: true,
      images: [],
    });
    expect(body.tasks[1]).toMatchObject({
      formTitle: 'Check-in',
      formDescription: 'How is it going?',
      questions: [{ question: 'Your first week?', type: 'descriptive', optional: false }],
    });
  });

  it('a card is edited by clicking it; the last one can be removed; Reset clears all', async () => {
    setup();
    const { user } = await open();
    await joinTrigger(user);
    await addMessage(user, 'Welcome');
    await user.click(screen.getByRole('button', { name: /^Edit\s*Trigger\s*Welcome flow/ }));
    const d = await dialog(WORKFLOW_TEXTS.initializeDialog);
    expect(within(d).getByLabelText('Workflow name')).toHaveValue('Welcome flow');
    await user.clear(within(d).getByLabelText('Workflow name'));
    await user.type(within(d).getByLabelText('Workflow name'), 'Renamed');
    await user.click(submit(d));
    expect(await screen.findByRole('button', { name: /^Edit\s*Trigger\s*Renamed/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Edit\s*Step 1\s*Send Message\s*Welcome/ }));
    const a = await dialog(WORKFLOW_TEXTS.actionDialog);
    expect(within(a).getByLabelText('Message title')).toHaveValue('Welcome');
    await user.click(within(a).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Remove Trigger' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Remove Step 1' }));
    expect(screen.queryByRole('button', { name: /^Edit\s*Step 1/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('button', { name: WORKFLOW_TEXTS.initializeCard })).toBeInTheDocument();
  });

  it('at most 11 cards: the 11th is forced to be an action, then no plus buttons', async () => {
    setup();
    const { user } = await open();
    await joinTrigger(user);
    for (let i = 1; i <= 4; i += 1) {
      await addForm(user, `Form ${i}`);
      await addDelay(user, null);
    }
    await addForm(user, 'Form 5');
    // 10 cards: the next (index 10) is the last, so only an action.
    expect(screen.getByText('10 of 11 cards')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add delay' })).toBeNull();
    await addForm(user, 'Form 6');
    expect(screen.getByText('11 of 11 cards')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add action' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  }, 60_000);

  it("a server 400: red 'Failure' toast with its message; the page stays", async () => {
    setup({
      'POST /workflows/createworkflow': {
        status: 400,
        body: { statusCode: 400, code: 'BAD_REQUEST', message: WORKFLOW_TEXTS.chooseRecipient },
      },
    });
    const { user, location } = await open();
    await joinTrigger(user);
    await addForm(user, 'Check-in');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WORKFLOW_TEXTS.chooseRecipient)).toBeInTheDocument();
    expect(screen.getByText('Failure')).toBeInTheDocument();
    expect(location().pathname).toBe(PATH);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});

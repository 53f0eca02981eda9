import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { executeFormBody, FORM_TEXTS, formsListResponse } from '@flywheel/shared/forms';
import { reply } from '../testing/fixture.ts';
import { formRow, formSent } from '../testing/form-fixtures.ts';
import { mockApi } from '../testing/mock-api.ts';
import { renderUi } from '../testing/render-ui.tsx';
import { seedSession } from '../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../testing/workspace-fixtures.ts';
import { SEND_FORM_TEXTS, SendFormModal, type SendFormModalProps } from './SendFormModal.tsx';

const FORMS = [formRow(9, 'Weekly check-in'), formRow(4, 'Onboarding survey')];

function setup(props: Partial<SendFormModalProps>, replies: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  const api = mockApi({
    ...workspaceDataMocks(),
    'GET /actions/getforms/T001': reply(formsListResponse, { data: FORMS }),
    'POST /actions/executeform': formSent(4, 2),
    ...replies,
  });
  const onClose = vi.fn();
  const onSent = vi.fn();
  const view = renderUi(
    <MemoryRouter>
      <SendFormModal opened onClose={onClose} onSent={onSent} {...props} />
    </MemoryRouter>,
  );
  return { ...view, api, onClose, onSent };
}

afterEach(() => vi.unstubAllGlobals());

describe('Send Form to selected people', () => {
  it('names the people, offers the forms to search; the body has exactly those members; success closes', async () => {
    const { user, api, onClose, onSent } = setup({ memberIds: ['U002', 'U003'] });
    const dialog = await screen.findByRole('dialog', { name: SEND_FORM_TEXTS.title });
    await waitFor(() =>
      expect(within(dialog).getByTestId('send-form-recipients')).toHaveTextContent(
        'To 2 members: Alan Turing, Grace Hopper',
      ),
    );
    // No form chosen yet: this product's text, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SEND_FORM_TEXTS.chooseForm);
    const select = within(dialog).getByRole('combobox', { name: 'Form' });
    await waitFor(() => expect(select).toBeEnabled());
    await user.type(select, 'onboard');
    expect(screen.queryByRole('option', { name: 'Weekly check-in' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Onboarding survey' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(
      within(dialog).getByText(/About Onboarding survey · 1 question · sent as Bot/),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(FORM_TEXTS.sent)).toBeInTheDocument();
    const [call, ...more] = api.callsTo('POST', '/actions/executeform');
    expect(more).toHaveLength(0);
    expect(call!.body).toEqual({
      team_id: 'T001',
      master_form_id: 4,
      send_ids: { members: ['U002', 'U003'], channels: [], tags: [] },
    });
    expect(executeFormBody.safeParse(call!.body).success).toBe(true);
    expect(onClose).toHaveBeenCalled();
    expect(onSent).toHaveBeenCalledTimes(1);
  });

  it("a refusal (400) is a red 'Failure' toast with the server's message; the popup stays", async () => {
    const { user, onClose, onSent } = setup(
      { memberIds: ['U004'] },
      {
        'POST /actions/executeform': {
          status: 400,
          body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'That form was deleted' },
        },
      },
    );
    const dialog = await screen.findByRole('dialog', { name: SEND_FORM_TEXTS.title });
    const select = within(dialog).getByRole('combobox', { name: 'Form' });
    await waitFor(() => expect(select).toBeEnabled());
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Weekly check-in' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('That form was deleted')).toBeInTheDocument();
    expect(screen.getByText('Failure')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(onSent).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });

  it('with no forms: says so, links to the Forms tab, and Confirm waits', async () => {
    const { api } = setup(
      { memberIds: ['U002'] },
      { 'GET /actions/getforms/T001': reply(formsListResponse, { data: [] }) },
    );
    const dialog = await screen.findByRole('dialog', { name: SEND_FORM_TEXTS.title });
    expect(await within(dialog).findByText(SEND_FORM_TEXTS.noForms)).toBeInTheDocument();
    expect(within(dialog).getByText(SEND_FORM_TEXTS.createHint)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: SEND_FORM_TEXTS.createLink })).toHaveAttribute(
      'href',
      '/dashboard/actions/forms',
    );
    expect(within(dialog).queryByRole('combobox', { name: 'Form' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(api.callsTo('POST', '/actions/executeform')).toHaveLength(0);
  });
});

describe("the Form Table's Send (the same popup with pickers)", () => {
  it('needs a member, channel or tag; sends the picked ones to that form', async () => {
    const { user, api } = setup({ form: FORMS[0]! });
    const dialog = await screen.findByRole('dialog', { name: 'Send Weekly check-in' });
    expect(within(dialog).queryByRole('combobox', { name: 'Form' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(FORM_TEXTS.sendTarget);
    await user.click(within(dialog).getByRole('combobox', { name: 'Tags' }));
    await user.click(await screen.findByRole('option', { name: 'vip' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(FORM_TEXTS.sent)).toBeInTheDocument();
    expect(api.callsTo('POST', '/actions/executeform')[0]!.body).toEqual({
      team_id: 'T001',
      master_form_id: 9,
      send_ids: { members: [], channels: [], tags: [1] },
    });
  });
});

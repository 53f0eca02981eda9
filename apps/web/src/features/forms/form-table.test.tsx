import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORM_TEXTS } from '@flywheel/shared/forms';
import { messageResponse } from '@flywheel/shared/http';
import { reply } from '../../testing/fixture.ts';
import { formRow } from '../../testing/form-fixtures.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderUi } from '../../testing/render-ui.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { FormTable } from './FormTable.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('Form Table: deleting a form asks first', () => {
  it('says what goes with it; Cancel keeps it, Delete form deletes it', async () => {
    seedSession();
    const api = mockApi({
      ...workspaceDataMocks(),
      'DELETE /actions/deleteform/T001/4': reply(messageResponse, { message: FORM_TEXTS.deleted }),
    });
    const rows = [formRow(4, 'Onboarding survey', { responses: 12, recurring: true, frequency: 'Weekly' })];
    const { user } = renderUi(
      <FormTable rows={rows} loading={false} error={null} onSend={vi.fn()} onResults={vi.fn()} />,
    );
    const del = await screen.findByRole('button', { name: 'Delete Onboarding survey' });
    await user.click(del);
    let dialog = await screen.findByRole('dialog', { name: 'Delete form?' });
    expect(dialog).toHaveTextContent('The form "Onboarding survey" will be deleted.');
    expect(dialog).toHaveTextContent(
      'Its button in Slack stops taking answers, and its 12 responses will no longer be shown here.',
    );
    expect(dialog).toHaveTextContent('It stops recurring');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete form?' })).toBeNull());
    expect(api.callsTo('DELETE', '/actions/deleteform/T001/4')).toEqual([]);

    await user.click(del);
    dialog = await screen.findByRole('dialog', { name: 'Delete form?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete form' }));
    expect(await screen.findByText(FORM_TEXTS.deleted)).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/actions/deleteform/T001/4')).toHaveLength(1);
  });
});

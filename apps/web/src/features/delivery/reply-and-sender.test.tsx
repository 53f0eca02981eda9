import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import '../../testing/editor-layout.ts';
import { DELIVERY_TEXTS, replyBody, sendResponse } from '@flywheel/shared/delivery';
import { authorizedAdminSchema, dataOf } from '@flywheel/shared/directory';
import { mockApi } from '../../testing/mock-api.ts';
import { renderUi } from '../../testing/render-ui.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { ChooseSenderModal } from './components/ChooseSenderModal.tsx';
import { ReplyModal } from './components/ReplyModal.tsx';

const SENT = sendResponse.parse({
  message: 'Sending to 1 recipient: follow it in Receipts',
  data: { receipt_id: 3, total: 1 },
});
const ADMINS = dataOf(authorizedAdminSchema).parse({
  data: [
    { user_id: 'U009', real_name: 'Grace Hopper', label: 'Grace Hopper', value: 'U009' },
    { user_id: 'U001', real_name: 'Ada Lovelace', label: 'Ada Lovelace', value: 'U001' },
  ],
});

describe('ReplyModal', () => {
  function setup() {
    seedSession();
    const api = mockApi({
      ...workspaceDataMocks(),
      'POST /quickaction/replytothread': { status: 202, body: SENT },
    });
    const onClose = vi.fn();
    const view = renderUi(
      <ReplyModal opened onClose={onClose} channelId="C001" ts="1700000000.000100" channelName="general" />,
    );
    return { ...view, api, onClose };
  }

  it("an empty reply says 'Please enter some text!' and sends nothing", async () => {
    const { user, api } = setup();
    await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 });
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText(DELIVERY_TEXTS.emptyReply)).toBeInTheDocument();
    expect(api.callsTo('POST', '/quickaction/replytothread')).toEqual([]);
  });

  it('replies in the thread with the payload the shared schema accepts', async () => {
    const { user, api, onClose } = setup();
    expect(screen.getByText('Reply in the thread in #general')).toBeInTheDocument();
    await user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.paste('thanks @channel');
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText(DELIVERY_TEXTS.chooseSender)).toBeInTheDocument();
    expect(api.callsTo('POST', '/quickaction/replytothread')).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText(SENT.message)).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = replyBody.parse(api.callsTo('POST', '/quickaction/replytothread')[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      sender: 'bot',
      text: 'thanks <!channel>',
      ts: '1700000000.000100',
      channel_id: 'C001',
      images: [],
    });
  });
});

describe('ChooseSenderModal', () => {
  function setup() {
    seedSession();
    mockApi({ ...workspaceDataMocks(), 'GET /getauthorizedadmins/T001/u1': { body: ADMINS } });
    const onChoose = vi.fn();
    const view = renderUi(<ChooseSenderModal opened onClose={() => {}} onChoose={onChoose} />);
    return { ...view, onChoose };
  }

  it("Next without a sender says 'Choose a Sender'", async () => {
    const { user, onChoose } = setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(DELIVERY_TEXTS.chooseSender)).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
  });

  it('Admin picks from the authorized admins, the first by default', async () => {
    const { user, onChoose } = setup();
    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Which admin', { selector: 'input' })).toHaveValue('Grace Hopper'),
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChoose).toHaveBeenLastCalledWith({ sender: 'admin', adminUser: 'U009' });

    await user.click(screen.getByLabelText('Which admin', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChoose).toHaveBeenLastCalledWith({ sender: 'admin', adminUser: 'U001' });

    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChoose).toHaveBeenLastCalledWith({ sender: 'bot', adminUser: null });
  });

  it('with no admin authorized yet (the installer has not used Add as Admin): Admin says so, only the Bot goes', async () => {
    seedSession();
    mockApi({ ...workspaceDataMocks(), 'GET /getauthorizedadmins/T001/u1': { body: { data: [] } } });
    const onChoose = vi.fn();
    const { user } = renderUi(<ChooseSenderModal opened onClose={() => {}} onChoose={onChoose} />);
    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    expect(
      await screen.findByText(
        'No admin has authorized Flywheel yet: use Add as Admin first, or send as the Bot.',
      ),
    ).toBeVisible();
    expect(screen.queryByLabelText('Which admin', { selector: 'input' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(DELIVERY_TEXTS.chooseSender)).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChoose).toHaveBeenLastCalledWith({ sender: 'bot', adminUser: null });
  });

  it('an admin who authorized twice is one option (the page does not fail)', async () => {
    seedSession();
    const twice = { data: [...ADMINS.data, ADMINS.data[0]!] };
    mockApi({ ...workspaceDataMocks(), 'GET /getauthorizedadmins/T001/u1': { body: twice } });
    const { user } = renderUi(<ChooseSenderModal opened onClose={() => {}} onChoose={vi.fn()} />);
    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Which admin', { selector: 'input' })).toHaveValue('Grace Hopper'),
    );
    await user.click(screen.getByLabelText('Which admin', { selector: 'input' }));
    expect(await screen.findAllByRole('option')).toHaveLength(2);
  });
});

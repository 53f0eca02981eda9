import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import '../../testing/editor-layout.ts';
import {
  adminChannelsResponse,
  receiptResponse,
  replyBody,
  sendResponse,
  testMessageBody,
  type ReceiptDetail,
} from '@flywheel/shared/delivery';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderUi } from '../../testing/render-ui.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { ReplyModal } from './components/ReplyModal.tsx';
import { SendMessageModal } from './components/SendMessageModal.tsx';

const SENT = sendResponse.parse({
  message: 'Sending to 1 recipient: follow it in Receipts',
  data: { receipt_id: 3, total: 1 },
});
const REFUSAL = {
  statusCode: 400,
  code: 'ADMIN_NOT_IN_CHANNEL',
  channels: 1,
  message:
    'channel_id: Ada Lovelace (the admin sending) is not a member of #general in Slack, so Slack would refuse the message. Send it as the Bot instead, or have Ada Lovelace join it in Slack first.',
};
const outside = (channels: { channel_id: string; name: string }[]) =>
  reply(adminChannelsResponse, { data: { admin: 'Ada Lovelace', channels } });

const receipt = (extra: Partial<ReceiptDetail>) =>
  reply(receiptResponse, {
    data: {
      id: 3,
      action_type: 'Thread Reply',
      description: 'an answer (to 1 channel)',
      sender: 'admin',
      created_at: '2026-01-01T10:00:00.000Z',
      total_recipient_count: 1,
      successful_recipient_count: 0,
      failed_recipient_count: 0,
      retryable_recipient_count: 0,
      error: null,
      failures: [],
      ...extra,
    },
  });

function replySetup(replies: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  const api = mockApi({
    ...workspaceDataMocks(),
    'POST /quickaction/replytothread': { status: 202, body: SENT },
    'GET /receipts/getreceipt/T001/3': receipt({ successful_recipient_count: 1 }),
    ...replies,
  });
  const onClose = vi.fn();
  const view = renderUi(
    <ReplyModal opened onClose={onClose} channelId="C001" ts="1700000000.000100" channelName="general" />,
  );
  const write = async (text: string) => {
    await view.user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await view.user.paste(text);
  };
  const asAdmin = async () => {
    await view.user.click(screen.getByRole('radio', { name: 'Admin' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Which admin', { selector: 'input' })).toHaveValue('Ada Lovelace'),
    );
  };
  return { ...view, api, onClose, write, asAdmin };
}

describe('Reply as an admin who is not in the channel', () => {
  it('warns before sending and offers the bot; choosing the bot sends the reply as the bot', async () => {
    const { user, api, onClose, write, asAdmin } = replySetup({
      'GET /delivery/adminchannels/T001': outside([{ channel_id: 'C001', name: 'general' }]),
    });
    await write('an answer');
    await asAdmin();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Ada Lovelace is not in #general');
    expect(alert).toHaveTextContent(
      'Slack refuses a message from someone who is not a member of the channel.',
    );
    const [asked] = api.callsTo('GET', '/delivery/adminchannels/T001');
    expect(asked).toBeDefined();
    expect(api.calls.find((c) => c.path === '/delivery/adminchannels/T001')).toBeDefined();
    expect(api.callsTo('POST', '/quickaction/replytothread')).toEqual([]);

    await user.click(within(alert).getByRole('button', { name: 'Send as the Bot instead' }));
    expect(screen.getByRole('radio', { name: 'Bot' })).toBeChecked();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = replyBody.parse(api.callsTo('POST', '/quickaction/replytothread')[0]!.body);
    expect(body).toMatchObject({ sender: 'bot', admin_user: null, channel_id: 'C001' });
  });

  it('a refusal from the server is shown in the dialog with the same offer, not as a send', async () => {
    const { user, onClose, write, asAdmin } = replySetup({
      'GET /delivery/adminchannels/T001': outside([]),
      'POST /quickaction/replytothread': { status: 400, body: REFUSAL },
    });
    await write('an answer');
    await asAdmin();
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Slack would refuse this message');
    expect(alert).toHaveTextContent('Ada Lovelace (the admin sending) is not a member of #general in Slack');
    expect(alert).not.toHaveTextContent('channel_id:');
    expect(within(alert).getByRole('button', { name: 'Send as the Bot instead' })).toBeEnabled();
    expect(screen.queryByText('Failure')).toBeNull();
    expect(screen.queryByText(/^Sending to/)).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('The toast follows the receipt', () => {
  it('says "Not sent" with Slack\'s reason when the send failed', async () => {
    const { user, write } = replySetup({
      'GET /receipts/getreceipt/T001/3': receipt({
        failed_recipient_count: 1,
        failures: [{ error: 'not_in_channel', count: 1 }],
      }),
    });
    await write('an answer');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText(SENT.message)).toBeInTheDocument();
    expect(screen.queryByText('Success')).toBeNull();
    expect(await screen.findByText('Not sent', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Slack refused it: the sender is not a member of the channel. See Receipts for details.',
      ),
    ).toBeInTheDocument();
  });

  it('says "Sent" once Slack has it', async () => {
    const { user, write } = replySetup();
    await write('an answer');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(await screen.findByText('Delivered in Slack.', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Sent')).toBeInTheDocument();
  });
});

describe('Preview and Send a test to me', () => {
  function setup(replies: Parameters<typeof mockApi>[0] = {}) {
    seedSession();
    const api = mockApi({
      ...workspaceDataMocks(),
      'POST /quickaction/sendtest': {
        status: 202,
        body: sendResponse.parse({
          message: 'Sending the test to you: it arrives as a DM in Slack',
          data: { receipt_id: 3, total: 1 },
        }),
      },
      'GET /receipts/getreceipt/T001/3': receipt({ successful_recipient_count: 1 }),
      ...replies,
    });
    const onClose = vi.fn();
    const view = renderUi(
      <SendMessageModal
        opened
        onClose={onClose}
        target={{ kind: 'audience', audience: { filter: {} } }}
        pickers={['tags', 'channels']}
        summary="To the 505 members filtered"
      />,
    );
    return { ...view, api, onClose };
  }

  it('the preview shows the message as Slack will: sender, emoji, bold, @name', async () => {
    const { user } = setup();
    const preview = await screen.findByRole('group', { name: 'Preview' });
    expect(preview).toHaveTextContent('Your message shows here as it will look in Slack.');
    await user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.paste('Hello :wave: *team* @channel');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await waitFor(() => expect(within(preview).getByText('Flywheel')).toBeInTheDocument());
    expect(within(preview).getByText('APP')).toBeInTheDocument();
    expect(within(preview).getByRole('img', { name: 'wave' })).toHaveTextContent('👋');
    expect(within(preview).getByText('team').tagName).toBe('STRONG');
    expect(preview).toHaveTextContent('@channel');

    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    await waitFor(() => expect(within(preview).getByText('Ada Lovelace')).toBeInTheDocument());
    expect(within(preview).queryByText('APP')).toBeNull();
  });

  it('"Send a test to me" sends the message to you (not to the 505), and the dialog stays open', async () => {
    const { user, api, onClose } = setup();
    await user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    // Nothing written: nothing to test.
    expect(screen.getByRole('button', { name: 'Send a test to me' })).toBeDisabled();
    await user.paste('Big news');
    // No sender yet: the same check as Send, nothing sent.
    await user.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(await screen.findByText('Choose a Sender')).toBeInTheDocument();
    expect(api.callsTo('POST', '/quickaction/sendtest')).toEqual([]);

    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Send a test to me' }));
    expect(
      await screen.findByText('Look for it in your DMs in Slack.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Test sent')).toBeInTheDocument();
    const [call, ...more] = api.callsTo('POST', '/quickaction/sendtest');
    expect(more).toEqual([]);
    expect(testMessageBody.parse(call!.body)).toMatchObject({
      team_id: 'T001',
      sender: 'bot',
      text: 'Big news',
      images: [],
    });
    expect(call!.headers['idempotency-key']).toBeTruthy();
    expect(api.callsTo('POST', '/quickaction/sendmessage')).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
});

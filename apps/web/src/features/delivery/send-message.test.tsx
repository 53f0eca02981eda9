import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../testing/editor-layout.ts';
import {
  DELIVERY_TEXTS,
  directMessageBody,
  dmManyBody,
  sendMessageBody,
  sendResponse,
  uploadImageResponse,
} from '@flywheel/shared/delivery';
import { authorizedAdminSchema, dataOf } from '@flywheel/shared/directory';
import { mockApi } from '../../testing/mock-api.ts';
import { fakeFile, mockUploads } from '../../testing/mock-upload.ts';
import { renderUi } from '../../testing/render-ui.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { SendMessageButton } from './components/SendMessageButton.tsx';
import { SendMessageModal, type SendMessageModalProps } from './components/SendMessageModal.tsx';

const SENT = sendResponse.parse({
  message: 'Sending to 2 recipients: follow it in Receipts',
  data: { receipt_id: 7, total: 2 },
});
const uploaded = (i: number) =>
  uploadImageResponse.parse({
    message: 'Image uploaded',
    data: { file_id: `F00${i}`, url: `https://files.example/F00${i}`, name: `pic${i}.png` },
  });

function setup(props: Partial<SendMessageModalProps> = {}, replies: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  const api = mockApi({
    ...workspaceDataMocks(),
    'POST /quickaction/sendmessage': { status: 202, body: SENT },
    'POST /quickaction/dmtomultipleusers': { status: 202, body: SENT },
    'POST /member/directmessage': { status: 202, body: SENT },
    ...replies,
  });
  const onClose = vi.fn();
  const view = renderUi(
    <SendMessageModal
      opened
      onClose={onClose}
      target={{ kind: 'audience', audience: { dms: { members: ['U001', 'U002'] } } }}
      {...props}
    />,
  );
  const send = () => view.user.click(screen.getByRole('button', { name: 'Send' }));
  const write = async (text: string) => {
    await view.user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await view.user.paste(text);
  };
  const sends = () => api.calls.filter((c) => c.method === 'POST');
  return { ...view, api, onClose, send, write, sends };
}

const fileInput = (container: HTMLElement) =>
  container.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('SendMessageModal: validation', () => {
  it('Members screen: no sender, no target and no text are refused with the documented texts, nothing sent', async () => {
    const { send, sends } = setup({ target: { kind: 'audience', audience: {} } });
    await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 });
    await send();
    expect(await screen.findByText(DELIVERY_TEXTS.chooseSender)).toBeInTheDocument();
    expect(screen.getByText(DELIVERY_TEXTS.chooseTarget)).toBeInTheDocument();
    expect(screen.getByText(DELIVERY_TEXTS.emptyMessage)).toBeInTheDocument();
    expect(sends()).toEqual([]);
  });

  it('Send-DM popup: "choose a sender" and "Please select atleast one member"', async () => {
    const { send, write, sends } = setup({ target: { kind: 'members', memberIds: [] } });
    await write('hello');
    await send();
    expect(await screen.findByText('choose a sender')).toBeInTheDocument();
    expect(screen.getByText(DELIVERY_TEXTS.chooseMember)).toBeInTheDocument();
    expect(sends()).toEqual([]);
  });

  it('images: more than 10, a gif and a 6 MB file are refused with the documented texts', async () => {
    const { container, send, write, sends } = setup();
    const user = userEvent.setup({ applyAccept: false });
    await write('hello');
    const tooMany = Array.from({ length: 11 }, (_, i) => fakeFile(`p${i}.png`, 'image/png'));
    await user.upload(fileInput(container), tooMany);
    expect(await screen.findByText(DELIVERY_TEXTS.tooManyImages)).toBeInTheDocument();
    await user.upload(fileInput(container), fakeFile('a.gif', 'image/gif'));
    expect(await screen.findByText(DELIVERY_TEXTS.imageType)).toBeInTheDocument();
    await user.upload(fileInput(container), fakeFile('big.jpg', 'image/jpeg', 6 * 1024 * 1024));
    expect(await screen.findByText(DELIVERY_TEXTS.imageSize)).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    await send();
    expect(sends()).toEqual([]);
  });
});

describe('SendMessageModal: sending', () => {
  it('uploads the images, posts what the shared schema accepts, shows 100% and the server message, closes', async () => {
    const { container, user, send, write, api, onClose } = setup({ pickers: ['members', 'channels'] });
    const { uploads } = mockUploads((_form, i) => ({ status: 201, body: uploaded(i + 1) }));
    await write('Hi @here & team');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.upload(fileInput(container), [
      fakeFile('pic1.png', 'image/png'),
      fakeFile('pic2.jpg', 'image/jpeg'),
    ]);
    expect(await screen.findByRole('img', { name: 'pic1.png' })).toBeInTheDocument();
    await send();

    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100'));
    expect(await screen.findByText(SENT.message)).toBeInTheDocument();
    await waitFor(() => expect(onClose).toHaveBeenCalled());

    expect(uploads).toHaveLength(2);
    expect(uploads[0]!.form.get('team_id')).toBe('T001');
    expect((uploads[0]!.form.get('image') as File).name).toBe('pic1.png');
    expect(uploads[0]!.headers.authorization).toMatch(/^Bearer /);
    const [call] = api.callsTo('POST', '/quickaction/sendmessage');
    const body = sendMessageBody.parse(call!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      sender: 'bot',
      admin_user: null,
      message: 'Hi <!here> &amp; team',
      images: ['F001', 'F002'],
      channel_ids: [],
      dms: { members: ['U001', 'U002'], tags: [], channels: [] },
    });
  });

  it('everything filtered: the Members filter is sent as `filter`', async () => {
    const filter = { time_filter: { type: 'static' as const, days: 7 }, tags: [1] };
    const { user, send, write, api } = setup({ target: { kind: 'audience', audience: { filter } } });
    await write('hello all');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await send();
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1));
    const body = sendMessageBody.parse(api.callsTo('POST', '/quickaction/sendmessage')[0]!.body);
    expect(body.filter).toMatchObject(filter);
    expect(body.dms.members).toEqual([]);
  });

  it('member detail: one member as an admin through /member/directmessage', async () => {
    const { user, send, write, api } = setup({ target: { kind: 'member', memberId: 'U002' } });
    expect(await screen.findByText('To Alan Turing')).toBeInTheDocument();
    await write('hi');
    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    await send();
    await waitFor(() => expect(api.callsTo('POST', '/member/directmessage')).toHaveLength(1));
    const body = directMessageBody.parse(api.callsTo('POST', '/member/directmessage')[0]!.body);
    expect(body).toMatchObject({ id: 'U002', sender: 'admin', admin_user: 'U001', text: 'hi', images: [] });
  });

  it('two admins who each did Add as Admin: both are offered, the preview names the one picked, and it sends as them', async () => {
    // GET /getauthorizedadmins as the server answers after two Slack admins authorized (oldest first).
    const twoAdmins = dataOf(authorizedAdminSchema).parse({
      data: [
        { user_id: 'U001', real_name: 'Ada Lovelace', label: 'Ada Lovelace', value: 'U001' },
        { user_id: 'U009', real_name: 'Grace Hopper', label: 'Grace Hopper', value: 'U009' },
      ],
    });
    const { user, send, write, api } = setup(
      { target: { kind: 'member', memberId: 'U002' } },
      { 'GET /getauthorizedadmins/T001/u1': { body: twoAdmins } },
    );
    await write('hi');
    await user.click(screen.getByRole('radio', { name: 'Admin' }));
    const which = screen.getByLabelText('Which admin', { selector: 'input' });
    await waitFor(() => expect(which).toHaveValue('Ada Lovelace'));
    await user.click(which);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Ada Lovelace',
      'Grace Hopper',
    ]);
    await user.click(screen.getByRole('option', { name: 'Grace Hopper' }));
    const preview = screen.getByRole('group', { name: 'Preview' });
    await waitFor(() => expect(within(preview).getByText('Grace Hopper')).toBeInTheDocument());
    await send();
    await waitFor(() => expect(api.callsTo('POST', '/member/directmessage')).toHaveLength(1));
    const body = directMessageBody.parse(api.callsTo('POST', '/member/directmessage')[0]!.body);
    expect(body).toMatchObject({ id: 'U002', sender: 'admin', admin_user: 'U009' });
  });

  it('Send-DM popup: the members in `users`', async () => {
    const { user, send, write, api } = setup({ target: { kind: 'members', memberIds: ['U003'] } });
    await write('hey');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await send();
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/dmtomultipleusers')).toHaveLength(1));
    expect(dmManyBody.parse(api.callsTo('POST', '/quickaction/dmtomultipleusers')[0]!.body).users).toEqual([
      'U003',
    ]);
  });

  it('a refused send shows the red Failure toast with the server message and stays open', async () => {
    const { user, send, write, onClose } = setup(
      {},
      {
        'POST /quickaction/sendmessage': {
          status: 400,
          body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Unknown member: U404' },
        },
      },
    );
    await write('hello');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await send();
    const toast = (await screen.findByText('Unknown member: U404')).closest('.mantine-Notification-root');
    expect(within(toast as HTMLElement).getByText('Failure')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('an upload the server refuses is shown and nothing is sent', async () => {
    const { container, user, send, write, sends } = setup();
    mockUploads(() => ({
      status: 400,
      body: { code: 'VALIDATION_ERROR', message: DELIVERY_TEXTS.imageType },
    }));
    await write('hello');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.upload(fileInput(container), fakeFile('fake.png', 'image/png'));
    await send();
    expect(await screen.findByText(DELIVERY_TEXTS.imageType)).toBeInTheDocument();
    expect(sends()).toEqual([]);
  });
});

describe('Members screen Send Message', () => {
  it('the checked rows come preselected, a tag and a channel can be added, and all three are sent', async () => {
    seedSession();
    const api = mockApi({
      ...workspaceDataMocks(),
      'POST /quickaction/sendmessage': { status: 202, body: SENT },
    });
    const { user } = renderUi(
      <SendMessageButton audience={{ dms: { members: ['U001', 'U002'] } }} summary="To 2 selected members" />,
    );
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const choose = await screen.findByRole('dialog', { name: 'Choose Sender' });
    await user.click(within(choose).getByRole('radio', { name: 'Bot' }));
    await user.click(within(choose).getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(within(dialog).getByText('To 2 selected members')).toBeInTheDocument();
    await user.click((await within(dialog).findAllByLabelText('Send Direct Message to tags'))[0]!);
    await user.click(await screen.findByRole('option', { name: 'vip' }));
    await user.click(within(dialog).getAllByLabelText('Send Message On Channel')[0]!);
    await user.click((await screen.findAllByRole('option', { name: /^#/ }))[0]!);
    await user.click(await within(dialog).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.paste('hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1));
    const body = sendMessageBody.parse(api.callsTo('POST', '/quickaction/sendmessage')[0]!.body);
    expect(body.dms).toMatchObject({ members: ['U001', 'U002'], tags: [1] });
    expect(body.channel_ids).toHaveLength(1);
  });
});

describe('SendMessageModal: a large send is confirmed with its count', () => {
  const filter = { time_filter: { type: 'static' as const, days: 7 } };
  const BUDGET = {
    data: { limited: true, budget: 1479, used: 279, remaining: 1200, window_hours: 24, confirm_over: 100 },
  };
  /** The server's answer to a send to everything filtered: the count first, the send once confirmed. */
  const confirmFirst = (body: unknown) =>
    (body as { confirm_recipients?: number }).confirm_recipients === 493
      ? { status: 202, body: SENT }
      : {
          status: 409,
          body: {
            statusCode: 409,
            code: 'CONFIRM_RECIPIENTS',
            message: 'This goes to 493 members: confirm by sending it again with confirm_recipients: 493',
            recipients: 493,
            members: 493,
            channels: 0,
          },
        };
  const start = async () => {
    const view = setup(
      { target: { kind: 'audience', audience: { filter } } },
      { 'POST /quickaction/sendmessage': confirmFirst, 'GET /delivery/budget/T001': { body: BUDGET } },
    );
    expect(await screen.findByText('Daily budget: 1,200 of 1,479 messages left')).toBeInTheDocument();
    await view.write('hello all');
    await view.user.click(screen.getByRole('radio', { name: 'Bot' }));
    await view.send();
    return view;
  };

  it('"Send to 493 members?" is a second step; confirmed, the send goes again with confirm_recipients: 493', async () => {
    const { user, api, onClose } = await start();
    const step = await screen.findByRole('dialog', { name: 'Send to 493 members?' });
    expect(within(step).getByText('Daily budget: 1,200 of 1,479 messages left')).toBeInTheDocument();
    expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(step).getByRole('button', { name: 'Send to 493 members' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [asked, confirmed] = api.callsTo('POST', '/quickaction/sendmessage');
    expect((asked!.body as { confirm_recipients?: number }).confirm_recipients).toBeUndefined();
    expect(sendMessageBody.parse(confirmed!.body)).toMatchObject({ confirm_recipients: 493, filter });
    // Confirming is a new submit: a new Idempotency-Key.
    expect(confirmed!.headers['idempotency-key']).not.toBe(asked!.headers['idempotency-key']);
  });

  it('Back sends nothing more, shows no failure, and the popup stays open to edit', async () => {
    const { user, api, onClose } = await start();
    const step = await screen.findByRole('dialog', { name: 'Send to 493 members?' });
    await user.click(within(step).getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send to 493 members?' })).toBeNull());
    expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1);
    expect(screen.queryByText('Failure')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });
});

describe('SendMessageModal: Idempotency-Key', () => {
  it('each submit has its own key; a send with no answer (or a 503) is sent again with the same key', async () => {
    let n = 0;
    const { user, send, write, api, onClose } = setup(
      {},
      {
        'POST /quickaction/sendmessage': () => {
          n++;
          if (n === 1) throw new TypeError('Failed to fetch'); // no answer: sent again
          if (n === 2)
            return {
              status: 400,
              body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Unknown member: U404' },
            };
          if (n === 3) return { status: 503, body: { statusCode: 503, code: 'INTERNAL', message: 'down' } };
          return { status: 202, body: SENT };
        },
      },
    );
    await write('hello');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await send();
    // The retry got a 400: not tried again, shown.
    expect(await screen.findByText('Unknown member: U404', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(2);
    await send(); // the person submits again: a 503, then sent
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
    const keys = api.callsTo('POST', '/quickaction/sendmessage').map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    for (const k of keys)
      expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

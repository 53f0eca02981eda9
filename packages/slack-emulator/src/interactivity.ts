import { newId, randomToken } from './ids.ts';
import { signedHeaders } from './signing.ts';
import type { Json, SlackMessage } from './types.ts';
import type { Auth } from './auth.ts';
import type { Team } from './state/team.ts';
import type { SocketMode } from './events/socket-mode.ts';

export type ViewRecord = {
  id: string;
  teamId: string;
  userId: string;
  view: Json;
  hash: string;
  rootId: string;
};
/** A message shown to one member in a conversation (chat.postEphemeral); Slack keeps it for no one else. */
export type EphemeralRecord = {
  teamId: string;
  channel: string;
  user: string;
  ts: string;
  text: string;
  blocks?: unknown[];
};
export type DialogRecord = { id: string; teamId: string; userId: string; dialog: Json; channel?: string };
/** `local`: Slack's own client answered (a required input left empty), nothing reached the app. */
export type InteractionResult = { status: number; body?: Json; error?: string; local?: boolean };
type Trigger = { teamId: string; userId: string; expiresAt: number; used: boolean; channel?: string };

/** trigger_ids, open modals/dialogs per member, and signed delivery to the Interactivity URL. */
export type InteractivityDeps = {
  options: { triggerTtlMs?: number };
  now: () => number;
  config: { interactivityUrl?: string; socketMode?: boolean };
  socket?: SocketMode;
  auth: Auth;
  baseUrl: () => string;
  teams: Map<string, Team>;
};

export function createInteractivity(core: InteractivityDeps) {
  const ttl = core.options.triggerTtlMs ?? 3000;
  const triggers = new Map<string, Trigger>();
  const views = new Map<string, ViewRecord>();
  const stacks = new Map<string, string[]>();
  const dialogs = new Map<string, DialogRecord>();
  const notices = new Map<string, string[]>();
  /** chat.postEphemeral: what each member was shown, only to them (never a message of the channel). */
  const ephemerals: EphemeralRecord[] = [];

  const issueTrigger = (teamId: string, userId: string, channel?: string): string => {
    const id = `${Math.floor(core.now() / 1000)}${Math.floor(Math.random() * 1e4)}.${Math.floor(Math.random() * 1e11)}.${randomToken(32)}`;
    triggers.set(id, { teamId, userId, expiresAt: core.now() + ttl, used: false, channel });
    return id;
  };

  /** Slack-style codes: ok, expired, exchanged, invalid. */
  const consumeTrigger = (
    id: string,
  ): { code: 'ok' | 'expired' | 'exchanged' | 'invalid'; trigger?: Trigger } => {
    const t = triggers.get(id);
    if (!t) return { code: 'invalid' };
    if (t.used) return { code: 'exchanged' };
    if (core.now() > t.expiresAt) return { code: 'expired' };
    t.used = true;
    return { code: 'ok', trigger: t };
  };

  const viewJson = (rec: ViewRecord, previous: string | null): Json => ({
    ...rec.view,
    id: rec.id,
    team_id: rec.teamId,
    state: { values: {} },
    hash: rec.hash,
    private_metadata: rec.view.private_metadata ?? '',
    callback_id: rec.view.callback_id ?? '',
    external_id: rec.view.external_id ?? '',
    clear_on_close: rec.view.clear_on_close ?? false,
    notify_on_close: rec.view.notify_on_close ?? false,
    root_view_id: rec.rootId,
    previous_view_id: previous,
    app_id: core.auth.app.appId,
    app_installed_team_id: rec.teamId,
    bot_id: core.auth.installs.get(rec.teamId)?.botId ?? '',
  });

  const openView = (teamId: string, userId: string, view: Json, push = false): Json => {
    const id = newId('V', 10);
    const stack = push ? (stacks.get(userId) ?? []) : [];
    const rec: ViewRecord = {
      id,
      teamId,
      userId,
      view,
      hash: `${Math.floor(core.now() / 1000)}.${randomToken(8)}`,
      rootId: stack[0] ?? id,
    };
    views.set(id, rec);
    stacks.set(userId, [...stack, id]);
    return viewJson(rec, stack[stack.length - 1] ?? null);
  };

  const updateView = (viewId: string, view: Json): Json | undefined => {
    const rec = views.get(viewId);
    if (!rec) return undefined;
    rec.view = view;
    rec.hash = `${Math.floor(core.now() / 1000)}.${randomToken(8)}`;
    return viewJson(rec, null);
  };

  const openDialog = (teamId: string, userId: string, dialog: Json, channel?: string): DialogRecord => {
    const rec: DialogRecord = { id: newId('DLG', 8), teamId, userId, dialog, channel };
    dialogs.set(userId, rec);
    return rec;
  };

  /** How many interactions were POSTed to the Interactivity URL, and how many went over Socket Mode. */
  const sent = { http: 0, socket: 0 };

  /**
   * POSTs `payload=<json>` (exactly application/x-www-form-urlencoded), signed; in Socket Mode an `interactive`
   * envelope instead, whose acknowledgement's payload is the answer.
   */
  const send = async (payload: Json): Promise<InteractionResult> => {
    if (core.config.socketMode && core.socket) {
      sent.socket++;
      const r = await core.socket.deliverInteractive(payload);
      return r.ok ? { status: 200, body: r.payload } : { status: 0, error: r.error };
    }
    const url = core.config.interactivityUrl;
    if (!url) return { status: 0, error: 'no interactivity URL configured' };
    sent.http++;
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const headers = signedHeaders(core.auth.app.signingSecret, body, Math.floor(core.now() / 1000));
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
        signal: AbortSignal.timeout(3000),
      });
      const text = await res.text();
      let json: Json | undefined;
      try {
        json = text ? (JSON.parse(text) as Json) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, body: json };
    } catch (err) {
      return { status: 0, error: String(err) };
    }
  };

  const userPart = (teamId: string, userId: string): Json => {
    const u = core.teams.get(teamId)?.users.get(userId);
    return { id: userId, username: u?.username ?? '', name: u?.username ?? '', team_id: teamId };
  };
  const teamPart = (teamId: string): Json => ({ id: teamId, domain: core.teams.get(teamId)?.domain ?? '' });
  const responseUrl = (teamId: string, channel: string, ts: string): string =>
    `${core.baseUrl()}/_response/${teamId}/${channel}/${ts}/${randomToken(8)}`;

  const findAction = (
    message: SlackMessage,
    actionId: string,
  ): { action: Json; blockId: string } | undefined => {
    for (const block of (message.blocks ?? []) as Json[]) {
      const elements = [
        ...((block.elements as Json[] | undefined) ?? []),
        ...(block.accessory ? [block.accessory as Json] : []),
      ];
      const action = elements.find((e) => e.action_id === actionId);
      if (action) return { action, blockId: String(block.block_id ?? '') };
    }
    return undefined;
  };

  /** A member pressed a button (or picked an option) in a message: block_actions. */
  const clickButton = async (input: {
    teamId: string;
    userId: string;
    channel: string;
    message: SlackMessage;
    actionId: string;
    value?: string;
  }) => {
    const found = findAction(input.message, input.actionId);
    if (!found) return { status: 0, error: 'action_not_found' } as InteractionResult;
    const { action, blockId } = found;
    const team = core.teams.get(input.teamId);
    const ch = team?.channels.get(input.channel);
    const payload: Json = {
      type: 'block_actions',
      user: userPart(input.teamId, input.userId),
      api_app_id: core.auth.app.appId,
      token: core.auth.app.verificationToken,
      container: {
        type: 'message',
        message_ts: input.message.ts,
        channel_id: input.channel,
        is_ephemeral: false,
      },
      trigger_id: issueTrigger(input.teamId, input.userId, input.channel),
      team: teamPart(input.teamId),
      enterprise: null,
      is_enterprise_install: false,
      channel: { id: input.channel, name: ch?.isIm ? 'directmessage' : (ch?.name ?? '') },
      message: input.message,
      state: { values: {} },
      response_url: responseUrl(input.teamId, input.channel, input.message.ts),
      actions: [
        {
          type: action.type,
          block_id: blockId,
          action_id: input.actionId,
          ...(action.text ? { text: action.text } : {}),
          ...(input.value !== undefined
            ? { selected_option: { value: input.value } }
            : { value: action.value }),
          action_ts: (core.now() / 1000).toFixed(6),
        },
      ],
    };
    return send(payload);
  };

  const closeTop = (userId: string): void => {
    stacks.set(userId, (stacks.get(userId) ?? []).slice(0, -1));
  };

  /**
   * What Slack's client does before a view_submission: every input block of the view appears in
   * `state.values` in its element type's shape (plain_text_input and number_input a `value` string,
   * static_select and radio_buttons a `selected_option`, checkboxes and multi-selects `selected_options`,
   * datepicker a `selected_date` YYYY-MM-DD; an untouched one null, or [] for a list), a picked option carries
   * the element's own text beside its value, and a required input (`optional` not true) left empty, or a text
   * over the element's `max_length`, is refused in the modal itself without the app hearing of it (Block Kit
   * input block `optional`, plain_text_input `max_length`). A number_input's bounds and decimals are left to
   * the app, which must check them anyway.
   */
  const completeState = (view: Json, given: Json): { values: Json; errors: Record<string, string> } => {
    const values: Json = { ...given };
    const errors: Record<string, string> = {};
    for (const block of (view.blocks ?? []) as Json[]) {
      if (block.type !== 'input' || !block.element) continue;
      const el = block.element as Json;
      const blockId = String(block.block_id ?? '');
      const actionId = String(el.action_id ?? '');
      const inBlock = { ...((values[blockId] as Json | undefined) ?? {}) };
      const multi = el.type === 'checkboxes' || String(el.type).startsWith('multi_');
      const select =
        el.type === 'static_select' || el.type === 'radio_buttons' || el.type === 'external_select';
      const date = el.type === 'datepicker';
      const entry: Json = {
        type: el.type,
        ...(multi
          ? { selected_options: [] }
          : select
            ? { selected_option: null }
            : date
              ? { selected_date: null }
              : { value: null }),
        ...((inBlock[actionId] as Json | undefined) ?? {}),
      };
      if (!multi && !select && !date && entry.value === '') entry.value = null;
      if (date && entry.selected_date === '') entry.selected_date = null;
      const options = (el.options as Json[] | undefined) ?? [];
      const withText = (o: Json | null | undefined): Json | null | undefined => {
        if (!o || typeof o !== 'object') return o;
        const own = options.find((x) => x.value === o.value);
        return own ? { ...own, ...o, text: own.text } : o;
      };
      if (multi && Array.isArray(entry.selected_options))
        entry.selected_options = (entry.selected_options as Json[]).map((o) => withText(o) as Json);
      if (select && entry.selected_option) entry.selected_option = withText(entry.selected_option as Json);
      inBlock[actionId] = entry;
      values[blockId] = inBlock;
      const empty = multi
        ? !(entry.selected_options as Json[] | undefined)?.length
        : select
          ? !entry.selected_option
          : date
            ? !entry.selected_date
            : entry.value === null || entry.value === undefined;
      if (empty && block.optional !== true) errors[blockId] = 'Please complete this required field.';
      else if (
        typeof entry.value === 'string' &&
        typeof el.max_length === 'number' &&
        entry.value.length > el.max_length
      )
        errors[blockId] = `Must be ${el.max_length} characters or fewer.`;
    }
    return { values, errors };
  };

  /** A member submitted the top modal: view_submission, then the app's response_action is applied. */
  const submitView = async (userId: string, viewId: string, given: Json): Promise<InteractionResult> => {
    const rec = views.get(viewId);
    if (!rec) return { status: 0, error: 'view_not_found' };
    const { values, errors } = completeState(rec.view, given);
    if (Object.keys(errors).length > 0)
      return { status: 0, local: true, body: { response_action: 'errors', errors } };
    const view = { ...viewJson(rec, null), state: { values } };
    const payload: Json = {
      type: 'view_submission',
      team: teamPart(rec.teamId),
      user: userPart(rec.teamId, userId),
      api_app_id: core.auth.app.appId,
      token: core.auth.app.verificationToken,
      trigger_id: issueTrigger(rec.teamId, userId),
      view,
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const result = await send(payload);
    const action = result.body?.response_action;
    if (result.status === 200 && action !== 'errors') {
      if (action === 'update' && result.body?.view) updateView(viewId, result.body.view as Json);
      else if (action === 'push' && result.body?.view)
        openView(rec.teamId, userId, result.body.view as Json, true);
      else if (action === 'clear') stacks.set(userId, []);
      else closeTop(userId);
    }
    return result;
  };

  /** A member submitted a legacy dialog: dialog_submission. */
  const submitDialog = async (userId: string, submission: Json): Promise<InteractionResult> => {
    const rec = dialogs.get(userId);
    if (!rec) return { status: 0, error: 'dialog_not_found' };
    const channel = rec.channel ? core.teams.get(rec.teamId)?.channels.get(rec.channel) : undefined;
    const result = await send({
      type: 'dialog_submission',
      token: core.auth.app.verificationToken,
      action_ts: (core.now() / 1000).toFixed(6),
      team: teamPart(rec.teamId),
      user: { id: userId, name: userPart(rec.teamId, userId).name },
      channel: { id: rec.channel ?? '', name: channel?.name ?? '' },
      submission,
      callback_id: rec.dialog.callback_id ?? '',
      response_url: responseUrl(rec.teamId, rec.channel ?? '', '0'),
      state: rec.dialog.state ?? '',
    });
    if (result.status === 200 && !result.body?.errors) dialogs.delete(userId);
    return result;
  };

  return {
    issueTrigger,
    consumeTrigger,
    openView,
    updateView,
    openDialog,
    clickButton,
    submitView,
    submitDialog,
    closeView: (userId: string) => closeTop(userId),
    closeDialog: (userId: string) => dialogs.delete(userId),
    send,
    sent: () => ({ ...sent }),
    notices,
    /** Records an ephemeral message for one member; answers its ts (Slack's `message_ts`). */
    postEphemeral: (
      teamId: string,
      channel: string,
      user: string,
      m: { text: string; blocks?: unknown[] },
    ) => {
      const ts = `${Math.floor(core.now() / 1000)}.${String(ephemerals.length + 1).padStart(6, '0')}`;
      ephemerals.push({ teamId, channel, user, ts, text: m.text, ...(m.blocks ? { blocks: m.blocks } : {}) });
      return ts;
    },
    /** The ephemeral messages a member was shown (in a conversation, when given), oldest first. */
    ephemerals: (teamId: string, user: string, channel?: string): EphemeralRecord[] =>
      ephemerals.filter((e) => e.teamId === teamId && e.user === user && (!channel || e.channel === channel)),
    /** What a member currently sees on top: the modal stack's top view and/or a dialog. */
    surfaces: (userId: string) => {
      const stack = stacks.get(userId) ?? [];
      const top = stack[stack.length - 1];
      const rec = top ? views.get(top) : undefined;
      return { view: rec ? viewJson(rec, null) : null, dialog: dialogs.get(userId) ?? null };
    },
  };
}

export type Interactivity = ReturnType<typeof createInteractivity>;

import {
  NOTIFICATION_KINDS,
  NOTIFICATION_RETENTION_DAYS,
  type Notification,
  type NotificationKind,
  type NotificationsListResponse,
} from '@flywheel/shared/notifications';
import type { WebhookEventType } from '@flywheel/shared/webhooks';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { FinishedReceipt } from '../delivery/runner-repo.ts';
import { notificationsRepo, type Cursor, type NotificationRow } from './repo.ts';

export type NotificationsService = ReturnType<typeof notificationsService>;

const DAY_MS = 86_400_000;

/** What a notification says and where it leads, from its kind and data (made when answering, so texts can change). */
type Shown = Pick<Notification, 'text' | 'tone' | 'link'>;

const str = (v: unknown, fallback = '') => (typeof v === 'string' && v.trim() ? v.trim() : fallback);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
/** One line, at most `max` characters (user content: a description, a question, a Slack error). */
const line = (v: unknown, max = 120) => {
  const s = str(v).replace(/\s+/g, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

function shown(kind: NotificationKind, d: Record<string, unknown>, count: number): Shown {
  switch (kind) {
    case 'send.finished': {
      const total = num(d.total);
      const failed = num(d.failed);
      const what = line(d.description) || str(d.action_type, 'A send');
      const link = `/dashboard/receipts?receipt=${num(d.receipt_id)}`;
      // The description names whom it went to ('… (to 3 members)').
      if (failed === 0) return { text: `Sent: ${what}`, tone: 'success', link };
      if (failed >= total)
        return { text: `Failed, all ${plural(total, 'recipient')}: ${what}`, tone: 'error', link };
      return { text: `Sent, ${failed} of ${total} failed: ${what}`, tone: 'warning', link };
    }
    case 'form.responses': {
      const form = line(d.form_name, 80) || 'a form';
      const path = `/dashboard/actions/form-instances/${num(d.form_id)}/${num(d.instance_id)}/responses`;
      return {
        text: `${count} new ${count === 1 ? 'response' : 'responses'} to ${form}`,
        tone: 'info',
        link: `${path}?name=${encodeURIComponent(str(d.form_name, 'Form responses'))}`,
      };
    }
    case 'poll.closed':
      return {
        text: `Poll closed: ${line(d.question, 100) || 'a poll'} (${plural(num(d.total_votes), 'vote')})`,
        tone: 'info',
        link: `/dashboard/actions/polls?poll=${num(d.poll_id)}`,
      };
    case 'workflow.step_failed': {
      const q = new URLSearchParams({
        workflowid: String(num(d.workflow_id)),
        type: 'trigger',
        name: str(d.workflow_name),
      });
      return {
        text: `A step of ${line(d.workflow_name, 80) || 'a workflow'} failed: ${line(d.error, 100) || 'not sent'}`,
        tone: 'error',
        link: `/dashboard/workflows/details?${q.toString()}`,
      };
    }
    case 'import.finished':
      return d.status === 'failed'
        ? { text: `History import failed: ${line(d.error, 100)}`, tone: 'error', link: '/dashboard/home' }
        : {
            text: `History import finished: ${plural(num(d.messages), 'message')} imported`,
            tone: 'success',
            link: '/dashboard/home',
          };
    case 'workspace.disconnected':
      return {
        text:
          d.reason === 'app_uninstalled'
            ? 'The Slack app was uninstalled: reconnect with Add as Admin'
            : "Slack revoked the bot's token: reconnect with Add as Admin",
        tone: 'error',
        link: '/dashboard/settings/team',
      };
  }
}

const isKind = (k: string): k is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(k);

const toNotification = (r: NotificationRow): Notification | null =>
  isKind(r.kind)
    ? {
        id: r.id,
        team_id: r.team_id,
        workspace_name: r.workspace_name,
        kind: r.kind,
        count: r.count,
        at: r.at,
        read: r.read,
        ...shown(r.kind, r.data, r.count),
      }
    : null;

const cursorOf = (r: NotificationRow) => `${r.at_us}-${r.id}`;
const parseCursor = (c: string | undefined): Cursor | null => {
  if (!c) return null;
  const [atUs, id] = c.split('-');
  return { atUs: atUs!, id: Number(id) };
};

/**
 * Notifications per admin: written where things happen (through `onEvent`, the same emission outbound webhooks
 * get, `sendFinished`, `importFinished`, and the notifications module's Slack event listener), listed per person.
 */
export function notificationsService(deps: { db: Db; logger: Logger; now?: () => number }) {
  const repo = notificationsRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();

  /** Outside a transaction: a failure is logged, never thrown (it must not fail what it tells about). */
  const safely = async (what: Record<string, unknown>, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (err) {
      deps.logger.error({ err, ...what }, 'notification not recorded');
    }
  };

  return {
    /** One notification for every admin of `teamId`, once per `dedupeKey`; inside a transaction pass it as `runner`. */
    notify: (
      runner: Tx,
      teamId: string,
      kind: NotificationKind,
      data: Record<string, unknown>,
      dedupeKey: string,
    ) => repo.fanOut(runner, { teamId, kind, data, dedupeKey }),

    /**
     * What the modules emit for outbound webhooks (webhooks/service.ts `Emit`), as notifications: a form's new
     * response (gathered per form instance), a poll closed, a workflow step failed. Never throws.
     */
    async onEvent(
      teamId: string,
      type: WebhookEventType,
      data: Record<string, unknown>,
      opts: { dedupeKey?: string } = {},
    ): Promise<void> {
      await safely({ teamId, type }, async () => {
        if (type === 'form.response') {
          // A member changing their answer is not a new response.
          if (data.replaced_earlier === true) return;
          const keep = { form_id: data.form_id, form_name: data.form_name, instance_id: data.instance_id };
          await repo.gather(deps.db, {
            teamId,
            kind: 'form.responses',
            data: keep,
            groupKey: `form.responses:${num(data.instance_id)}`,
          });
        } else if (type === 'poll.closed') {
          const keep = { poll_id: data.poll_id, question: data.question, total_votes: data.total_votes };
          await repo.fanOut(deps.db, {
            teamId,
            kind: 'poll.closed',
            data: keep,
            dedupeKey: opts.dedupeKey ?? `poll.closed:${num(data.poll_id)}`,
          });
        } else if (type === 'workflow.step_failed') {
          const keep = {
            workflow_id: data.workflow_id,
            workflow_name: data.workflow_name,
            step_id: data.step_id,
            error: data.error,
          };
          await repo.fanOut(deps.db, {
            teamId,
            kind: 'workflow.step_failed',
            data: keep,
            dedupeKey: opts.dedupeKey ?? `workflow.step_failed:${num(data.step_id)}`,
          });
        }
      });
    },

    /**
     * A receipt finished: told when a person started the send, or when any recipient failed (an automation's,
     * a schedule's or a workflow's send that went well is not announced each time). Once per finish (a Retry's
     * finish is another one). Never throws.
     */
    async sendFinished(r: FinishedReceipt & { created_by?: string | null }): Promise<void> {
      if (!r.created_by && r.failed === 0) return;
      await safely({ teamId: r.team_id, receipt: r.id }, () =>
        repo.fanOut(deps.db, {
          teamId: r.team_id,
          kind: 'send.finished',
          data: {
            receipt_id: r.id,
            action_type: r.action_type,
            description: r.description,
            total: r.total,
            sent: r.sent,
            failed: r.failed,
          },
          dedupeKey: `send.finished:${r.id}:${r.finished_at}`,
        }),
      );
    },

    /**
     * Slack disconnected the workspace (app_uninstalled, or tokens_revoked naming the bot's token): told once,
     * while it was still connected, with the drain's transaction (the listener's `tx`).
     */
    async workspaceDisconnected(
      tx: Tx,
      teamId: string,
      reason: 'app_uninstalled' | 'tokens_revoked',
      eventId: string,
    ): Promise<void> {
      const ws = await repo.connection(tx, teamId);
      if (ws?.status !== 'active') return;
      await repo.fanOut(tx, {
        teamId,
        kind: 'workspace.disconnected',
        data: { reason, event_id: eventId },
        // Once per connection: both events of one batch (the disconnection is applied after it) are one.
        dedupeKey: `workspace.disconnected:${teamId}:${ws.updated_at}`,
      });
    },

    /** The history import of a workspace finished (or was refused by Slack). Never throws. */
    async importFinished(
      teamId: string,
      outcome: { status: 'done' | 'failed'; messages: number; error?: string; finishedAt: Date },
    ): Promise<void> {
      await safely({ teamId }, () =>
        repo.fanOut(deps.db, {
          teamId,
          kind: 'import.finished',
          data: { status: outcome.status, messages: outcome.messages, error: outcome.error ?? null },
          dedupeKey: `import.finished:${teamId}:${outcome.finishedAt.toISOString()}`,
        }),
      );
    },

    async list(userId: string, limit: number, cursor?: string): Promise<NotificationsListResponse> {
      const rows = await repo.page(userId, limit + 1, parseCursor(cursor));
      const page = rows.slice(0, limit);
      return {
        data: page.map(toNotification).filter((n): n is Notification => n !== null),
        next_cursor: rows.length > limit ? cursorOf(page[page.length - 1]!) : null,
        unread: await repo.unread(userId),
      };
    },

    unread: async (userId: string) => ({ unread: await repo.unread(userId) }),

    async markRead(userId: string, id: number) {
      if (!(await repo.markRead(userId, id))) throw notFound('No such notification');
      return { unread: await repo.unread(userId) };
    },

    async markAllRead(userId: string) {
      await repo.markAllRead(userId);
      return { unread: await repo.unread(userId) };
    },

    /** The daily job: removes notifications older than NOTIFICATION_RETENTION_DAYS. */
    purgeExpired: () => repo.deleteOlderThan(new Date(now() - NOTIFICATION_RETENTION_DAYS * DAY_MS)),
  };
}

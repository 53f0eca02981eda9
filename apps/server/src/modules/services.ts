import type { ActionsService } from './actions/service.ts';
import type { AnalyticsService } from './analytics/service.ts';
import type { AudienceService } from './audience/service.ts';
import type { AuditService } from './audit/service.ts';
import type { AuthService } from './auth/service.ts';
import type { BotService } from './bot/service.ts';
import type { BucketsService } from './buckets/service.ts';
import type { ConversationsService } from './conversations/service.ts';
import type { DeliveryEngine } from './delivery/engine.ts';
import type { IdempotencyService } from './delivery/idempotency.ts';
import type { DeliveryService } from './delivery/service.ts';
import type { DigestService } from './digest/service.ts';
import type { FormsService } from './forms/service.ts';
import type { TasksService } from './home/service.ts';
import type { EventsService } from './intake/service.ts';
import type { MemberService } from './member-detail/service.ts';
import type { MembersService } from './members-list/service.ts';
import type { NotificationsService } from './notifications/service.ts';
import type { PollJobs, PollsService } from './polls/service.ts';
import type { TagsService } from './tags/service.ts';
import type { Emit, WebhooksService } from './webhooks/service.ts';
import type { WorkflowsService } from './workflows/service.ts';
import type { BackfillService } from './workspace-data/history-import.ts';
import type { InstallService } from './workspaces/install.ts';
import type { WorkspacesService } from './workspaces/service.ts';

/**
 * The service registry: every module's services by name, declared once. `ctx.services` has this type; a module
 * names the ones it uses in `needs` and the ones it builds in `provides` (module.ts), each once in the product.
 */
export type Services = {
  auth: AuthService;
  workspaces: WorkspacesService;
  install: InstallService;
  /** Slack intake: the inbox and its drain. */
  events: EventsService;
  /** Workspace data: the history import after an install. */
  historyImport: BackfillService;
  /** Bot name and image per workspace; `botIdentity` for chat:write.customize. */
  bot: BotService;
  tags: TagsService;
  membersList: MembersService;
  /** The advanced analytics table and buckets (saved filters, their runs and members). */
  buckets: BucketsService;
  memberDetail: MemberService;
  analytics: AnalyticsService;
  tasks: TasksService;
  /** Targets (members, tags, channels, workspace, filters) -> recipients, for every sender. */
  audience: AudienceService;
  /** The one sender: receipts, quick actions, images; `deliveryEngine` works the queue of recipients. */
  delivery: DeliveryService;
  deliveryEngine: DeliveryEngine;
  /** Idempotency-Key of the send routes: one answer (and one send) per key, per workspace and admin. */
  idempotency: IdempotencyService;
  /** Automations (Member Join) and schedules. */
  actions: ActionsService;
  /** Threads, posts, mentions, search and summaries. */
  conversations: ConversationsService;
  /** Forms: their instances (sent through delivery), the modal and the responses. */
  forms: FormsService;
  /** Workflows: triggers and chains of delayed messages and forms, each step sent once. */
  workflows: WorkflowsService;
  /** Polls: posted through delivery, voted on with reactions, closed once at their end. */
  polls: PollsService;
  /** The polls jobs (refresh coalesced per poll, close at the end, remove from Slack). */
  pollJobs: PollJobs;
  /** Outbound webhooks: subscriptions, `emit` (what the modules call) and the ordered, signed deliveries. */
  webhooks: WebhooksService;
  /** The audit log: rows written by the hook in app.ts, listed, exported and kept AUDIT_RETENTION_DAYS. */
  audit: AuditService;
  /** Notifications per admin: written where things happen, listed in the top bar, kept 90 days. */
  notifications: NotificationsService;
  /** What forms, polls and workflows call where a thing happens: the outbound webhooks' event and the notifications. */
  emit: Emit;
  /** The weekly digest: subscriptions, the preview, the minute tick that sends it once per admin and week. */
  digest: DigestService;
};

export type ServiceName = keyof Services;

import { recurrenceOf, wallClock, type DayCode } from '@flywheel/shared/clock';
import type { FormInstance, FormRow } from '@flywheel/shared/forms';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { SlackApi } from '../../slack/client.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { formsRepo, type FormRecord, type InstanceRecord } from './repo.ts';
import { formResponsesRepo } from './responses-repo.ts';
import { formRunnerRepo } from './runner-repo.ts';
import type { InstanceAudience } from './table.ts';

/*
 * What the forms service's parts share (service.ts puts them together): its dependencies, the repository, the
 * clock, and how a form and an instance are shown.
 */

/** An instance whose send failed (Slack or the database down) is tried again after this. */
export const RETRY_MS = 30_000;
const DAY_NUMBERS: Record<string, number> = { mon: 1, tue: 2, wed: 3, thurs: 4, fri: 5, sat: 6, sun: 0 };
const pad = (n: number) => String(n).padStart(2, '0');

export const recurrence = (f: Pick<FormRecord, 'frequency' | 'time' | 'days' | 'run_at'>) =>
  recurrenceOf({ ...f, at: f.run_at ? Date.parse(f.run_at) : null });

export const audienceOf = (f: FormRecord): InstanceAudience => ({
  channel_ids: f.channel_ids,
  dms: { members: f.dm_members, tags: f.dm_tags, channels: f.dm_channels },
  sendtoworkspace: f.send_to_workspace,
});

/** 'YYYY-MM-DD HH:MM' in the workspace's timezone: the instance's label (and its page's URL segment). */
function labelOf(at: number, tz: string): string {
  const w = wallClock(at, tz);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}

export type FormsDeps = {
  db: Db;
  audience: AudienceService;
  delivery: DeliveryService;
  workspaces: WorkspacesService;
  slack: SlackApi;
  /** Inside a transaction, pass it as `tx` (db/tx-guard.ts). */
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  /** A recurrence sent later than this is recorded as skipped (the product was down). */
  graceMs: number;
  /** How long a worker holds the instances it claimed (default 2 minutes). */
  claimMs?: number;
  logger: Logger;
  now?: () => number;
  /** Outbound webhooks (webhooks/service.ts `emit`): only queues, never throws. */
  emit?: Emit;
};

export const formsCore = (deps: FormsDeps) => {
  const repo = formsRepo(deps.db);
  const runnerRepo = formRunnerRepo(deps.db);
  const responsesRepo = formResponsesRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();
  const claimMs = deps.claimMs ?? 120_000;

  function toRow(f: FormRecord & { instances: number; responses: number }, tz: string): FormRow {
    const recurring = f.frequency !== 'onetime';
    const [h, m] = (f.time ?? '00:00').split(':').map(Number) as [number, number];
    let schedule = 'One time';
    if (f.frequency === 'Everyday') schedule = `Every Day at ${f.time}`;
    else if (f.frequency === 'Weekly') schedule = `Weekly (${f.days.join(', ')}) at ${f.time}`;
    else if (f.run_at) schedule = `One time, ${labelOf(Date.parse(f.run_at), tz)}`;
    return {
      master_form_id: f.id,
      form_title: f.name,
      form_description: f.description,
      sender: f.sender === 'bot' ? 'b' : 'a',
      sender_label: f.sender === 'bot' ? 'Bot' : 'Admin',
      admin_user: f.admin_user,
      recurring,
      schedule,
      frequency: f.frequency,
      days: f.days as DayCode[],
      time: f.time,
      cron_string: !recurring
        ? null
        : `${m} ${h} * * ${f.frequency === 'Everyday' ? '*' : f.days.map((d) => DAY_NUMBERS[d]).join(',')}`,
      next_run: f.next_run_at ? new Date(f.next_run_at).toISOString() : null,
      user_ids: f.dm_members,
      channel_ids: f.channel_ids,
      tag_ids: f.dm_tags,
      sendtoworkspace: f.send_to_workspace,
      questions: f.questions,
      ackMessage: f.ack_message,
      instances: f.instances,
      responses: f.responses,
      created_at: new Date(f.created_at).toISOString(),
    };
  }

  function toInstance(i: InstanceRecord, tz: string): FormInstance {
    const at = Date.parse(i.execution_time);
    return {
      form_id: i.id,
      master_form_id: i.form_id,
      execution_time: new Date(at).toISOString(),
      label: labelOf(at, tz),
      responses: i.responses,
      status: i.status,
      recipients: i.recipients,
      receipt_id: i.receipt_id,
    };
  }

  return { deps, repo, runnerRepo, responsesRepo, now, claimMs, toRow, toInstance };
};
export type FormsCore = ReturnType<typeof formsCore>;

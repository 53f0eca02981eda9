import type { AppContext } from '../../context.ts';
import { windowsJob } from '../activity/jobs.ts';
import { defineModule } from '../module.ts';
import { historyImportJob } from './jobs.ts';

/**
 * Workspace data: members, channels, messages and reactions as Slack gives them (applied from events by the
 * intake drain, see ingest.ts) and the history import after an install (history-import.ts, a table of phases).
 */
export const workspaceDataModule = defineModule({ name: 'workspace-data', jobs: [historyImportJob] });

/**
 * After an install: the workspace's standing windows start now (the import then adds to them), and a new
 * workspace, a reconnected one, or one whose import failed gets its history (again; idempotent).
 */
export async function onWorkspaceInstalled(
  ctx: AppContext,
  teamId: string,
  how: { isNew: boolean; reconnected: boolean },
): Promise<void> {
  await ctx.queue.send(windowsJob, {});
  const imports = ctx.services.historyImport;
  const last = await imports.progress(teamId);
  if (how.isNew || how.reconnected || !last || last.status === 'failed') {
    if (await imports.start(teamId)) await ctx.queue.send(historyImportJob, { teamId });
  }
}

/** On a worker's start: imports that were running when a process stopped carry on. */
export async function resumeHistoryImports(ctx: AppContext): Promise<void> {
  for (const teamId of await ctx.services.historyImport.listRunning())
    await ctx.queue.send(historyImportJob, { teamId });
}

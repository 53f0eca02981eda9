import { workflowTaskSchema } from '@flywheel/shared/workflows';
import { workflowsRepo, type NewWorkflow } from '../../../modules/workflows/repo.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema.ts';
import { AT, T, type QueryCase } from './common.ts';
import { ID, TASK, USER, seedWorkflow } from './fixture.ts';

const file = 'workflows';

const WORKFLOW: NewWorkflow = {
  team_id: T,
  name: 'Onboarding',
  sender: 'admin',
  admin_user: 'U1',
  trigger_type: 'channel_join',
  channel_id: 'C1',
  level: null,
  days: null,
  trigger_at: null,
  tags: [ID],
  segments: [],
  created_by: USER,
};

/** A form task's content (its form, 901, is written in the same transaction). */
const FORM_TASK = workflowTaskSchema.parse({
  type: 'form',
  formTitle: 'Check-in',
  formDescription: 'How is it going?',
  questions: [{ question: 'Rating', type: 'rating' }],
  delay: { delay_unit: 'days', delay_in_secs: 86_400 },
  sendToSelectedUsers: true,
});

/** Workflows 902 (no tasks yet) and 903 (to delete) of T. */
async function seedBareWorkflows(db: Db) {
  await db
    .insert(schema.workflows)
    .overridingSystemValue()
    .values(
      [902, 903].map((id) => ({
        id,
        teamId: T,
        name: `Workflow ${id}`,
        sender: 'bot' as const,
        triggerType: 'workspace_join' as const,
      })),
    )
    .onConflictDoNothing();
}

export const workflows: QueryCase[] = [
  {
    file,
    name: 'workflowsRepo.insertWorkflow',
    run: (db) => {
      const repo = workflowsRepo(db);
      return repo.transaction((tx) => repo.insertWorkflow(tx, WORKFLOW, AT));
    },
  },
  {
    file,
    name: 'workflowsRepo.insertTasks',
    seed: seedBareWorkflows,
    run: (db) => {
      const repo = workflowsRepo(db);
      return repo.transaction((tx) =>
        repo.insertTasks(tx, [
          {
            workflow_id: 902,
            position: 0,
            type: 'message',
            title: 'Welcome',
            delay_unit: null,
            delay_secs: 0,
            content: TASK,
            form_id: null,
          },
          {
            workflow_id: 902,
            position: 1,
            type: 'form',
            title: 'Check-in',
            delay_unit: 'days',
            delay_secs: 86_400,
            content: FORM_TASK,
            form_id: ID,
          },
        ]),
      );
    },
  },
  { file, name: 'workflowsRepo.list', run: (db) => workflowsRepo(db).list(T) },
  { file, name: 'workflowsRepo.find', seed: seedWorkflow, run: (db) => workflowsRepo(db).find(T, ID) },
  { file, name: 'workflowsRepo.findMany', run: (db) => workflowsRepo(db).findMany([ID, 902, ID]) },
  { file, name: 'workflowsRepo.tasksOf', run: (db) => workflowsRepo(db).tasksOf([ID, 902]) },
  { file, name: 'workflowsRepo.setActive', run: (db) => workflowsRepo(db).setActive(T, ID, true, AT) },
  {
    file,
    name: 'workflowsRepo.remove',
    seed: seedBareWorkflows,
    run: (db) => workflowsRepo(db).remove(T, 903),
  },
  { file, name: 'workflowsRepo.tagNames', run: (db) => workflowsRepo(db).tagNames(T, [ID, 902]) },
  { file, name: 'workflowsRepo.bucketNames', run: (db) => workflowsRepo(db).bucketNames(T, [ID]) },
];

import { actions } from './cases/actions.ts';
import { activityCohorts } from './cases/activity-cohorts.ts';
import { activityLevels } from './cases/activity-levels.ts';
import { activityMembers } from './cases/activity-members.ts';
import { activityReadsCases } from './cases/activity-reads.ts';
import { audience } from './cases/audience.ts';
import { audit } from './cases/audit.ts';
import { auth } from './cases/auth.ts';
import { bot } from './cases/bot.ts';
import { buckets } from './cases/buckets.ts';
import type { QueryCase } from './cases/common.ts';
import { conversationsQuestions } from './cases/conversations-questions.ts';
import { conversationsSearch } from './cases/conversations-search.ts';
import { conversations } from './cases/conversations.ts';
import { deliveryHistory } from './cases/delivery-history.ts';
import { deliveryIdempotency } from './cases/delivery-idempotency.ts';
import { deliveryImages } from './cases/delivery-images.ts';
import { deliveryLimits } from './cases/delivery-limits.ts';
import { deliveryMembership } from './cases/delivery-membership.ts';
import { deliveryPosted } from './cases/delivery-posted.ts';
import { deliveryReplies } from './cases/delivery-replies.ts';
import { deliveryRunner } from './cases/delivery-runner.ts';
import { delivery } from './cases/delivery.ts';
import { digest } from './cases/digest.ts';
import { directory } from './cases/directory.ts';
import { formsResponses } from './cases/forms-responses.ts';
import { formsRunner } from './cases/forms-runner.ts';
import { forms } from './cases/forms.ts';
import { home } from './cases/home.ts';
import { intake } from './cases/intake.ts';
import { mail } from './cases/mail.ts';
import { memberDetail } from './cases/member-detail.ts';
import { notifications } from './cases/notifications.ts';
import { pollsRunner } from './cases/polls-runner.ts';
import { pollsVotes } from './cases/polls-votes.ts';
import { polls } from './cases/polls.ts';
import { tags } from './cases/tags.ts';
import { webhooks } from './cases/webhooks.ts';
import { workflowsHistory } from './cases/workflows-history.ts';
import { workflowsRunner } from './cases/workflows-runner.ts';
import { workflowsTriggers } from './cases/workflows-triggers.ts';
import { workflows } from './cases/workflows.ts';
import { workspaceDataFacts } from './cases/workspace-data-facts.ts';
import { workspaceDataHistoryImport } from './cases/workspace-data-history-import.ts';
import { workspaces } from './cases/workspaces.ts';

export type { QueryCase } from './cases/common.ts';

/**
 * The repository statements whose SQL is kept in this folder (one `<file>.sql` per group, usually one repository
 * file), as the repositories send them: queries.test.ts calls each case on a migrated database and writes down
 * every statement it sends, with its parameters. A change to one of these statements shows in review as a diff of
 * its .sql file. Each group's cases are in `cases/<group>.ts`, one or more per method of every repository factory
 * (the test fails naming a method without one); arguments are fixed, so the files change only when the SQL does.
 * The groups run in this order, each case after the ones before it in its group, on one database.
 */
export const QUERY_CASES: QueryCase[] = [
  ...actions,
  ...activityCohorts,
  ...activityLevels,
  ...activityMembers,
  ...activityReadsCases,
  ...audience,
  ...audit,
  ...auth,
  ...bot,
  ...buckets,
  ...conversations,
  ...conversationsQuestions,
  ...conversationsSearch,
  ...delivery,
  ...deliveryHistory,
  ...deliveryIdempotency,
  ...deliveryImages,
  ...deliveryLimits,
  ...deliveryMembership,
  ...deliveryPosted,
  ...deliveryReplies,
  ...deliveryRunner,
  ...digest,
  ...directory,
  ...forms,
  ...formsResponses,
  ...formsRunner,
  ...home,
  ...intake,
  ...mail,
  ...memberDetail,
  ...notifications,
  ...polls,
  ...pollsRunner,
  ...pollsVotes,
  ...tags,
  ...webhooks,
  ...workflows,
  ...workflowsHistory,
  ...workflowsRunner,
  ...workflowsTriggers,
  ...workspaceDataFacts,
  ...workspaceDataHistoryImport,
  ...workspaces,
];

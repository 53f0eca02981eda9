import { actionsModule } from './actions/module.ts';
import { activityModule } from './activity/module.ts';
import { analyticsModule } from './analytics/module.ts';
import { auditModule } from './audit/module.ts';
import { authModule } from './auth/module.ts';
import { botModule } from './bot/module.ts';
import { bucketsModule } from './buckets/module.ts';
import { conversationsModule } from './conversations/module.ts';
import { deliveryModule } from './delivery/module.ts';
import { digestModule } from './digest/module.ts';
import { formsModule } from './forms/module.ts';
import { directoryModule } from './directory/module.ts';
import { emojiModule } from './emoji/module.ts';
import { homeModule } from './home/module.ts';
import { intakeModule } from './intake/module.ts';
import { mailModule } from './mail/module.ts';
import { notificationsModule } from './notifications/module.ts';
import { memberDetailModule } from './member-detail/module.ts';
import { membersListModule } from './members-list/module.ts';
import type { Module } from './module.ts';
import { platformModule } from './platform/module.ts';
import { pollsModule } from './polls/module.ts';
import { tagsModule } from './tags/module.ts';
import { webhooksModule } from './webhooks/module.ts';
import { workspaceDataModule } from './workspace-data/module.ts';
import { workflowsModule } from './workflows/module.ts';
import { workspaceInstallModule, workspacesModule } from './workspaces/module.ts';

/** Every module of the product, in registration order: app.ts mounts their routes, workers run their jobs. */
export const modules: Module[] = [
  platformModule,
  authModule,
  mailModule,
  workspacesModule,
  intakeModule,
  workspaceDataModule,
  workspaceInstallModule,
  activityModule,
  directoryModule,
  membersListModule,
  tagsModule,
  memberDetailModule,
  homeModule,
  analyticsModule,
  bucketsModule,
  botModule,
  emojiModule,
  deliveryModule,
  actionsModule,
  conversationsModule,
  formsModule,
  pollsModule,
  workflowsModule,
  webhooksModule,
  auditModule,
  notificationsModule,
  digestModule,
];

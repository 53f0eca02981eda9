import crypto from 'node:crypto';
import { users } from '../modules/auth/table.ts';
import type { TestApp } from './build-test-app.ts';

/**
 * A connected workspace, stored directly (no Slack involved), administered by `userId` or else by a new
 * account made for it (not one that can log in: for tests that need no session).
 */
export async function connectedWorkspace(
  t: TestApp,
  teamId: string,
  opts: { userId?: string; timezone?: string } = {},
): Promise<{ userId: string }> {
  let userId = opts.userId;
  if (!userId) {
    userId = crypto.randomUUID();
    await t.ctx.database.db.insert(users).values({
      id: userId,
      email: `${userId}@example.com`,
      username: 'Workspace Admin',
      country: 'Germany',
      passwordHash: 'not-a-password',
    });
  }
  await t.ctx.services.workspaces.saveInstall(
    {
      teamId,
      name: `Workspace ${teamId}`,
      domain: teamId.toLowerCase(),
      timezone: opts.timezone ?? 'UTC',
      bot: { token: 'xoxb-test', refreshToken: null, expiresIn: null },
      botUserId: null,
      appId: null,
      botScopes: '',
    },
    { userId, slackUserId: 'UADMIN', user: null, userScopes: null },
  );
  return { userId };
}

import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Workspace } from '@flywheel/shared/workspace';
import type { ApiKeyScope, Role } from '@flywheel/shared/roles';
import { users } from '../auth/table.ts';
import type { Db } from '../../db/client.ts';
import { textArray, typedRows, type Tx } from '../../db/sql.ts';
import {
  oauthStates,
  workspaceAdmins,
  workspaceApiKeys,
  workspaceInvitations,
  workspaceSenders,
  workspaces,
} from './table.ts';
import { slackMembers } from '../workspace-data/table.ts';

/** Which stored token: a workspace's bot token, or (with `slackUserId`) the user token of a Slack user. */
export type TokenKey = { teamId: string; slackUserId?: string };
export type StoredToken = { tokenSealed: string; refreshSealed: string | null; expiresAt: Date | null };

const senderIs = (teamId: string, slackUserId: string) =>
  and(eq(workspaceSenders.teamId, teamId), eq(workspaceSenders.slackUserId, slackUserId));

const workspaceColumns = {
  team_id: workspaces.teamId,
  workspace_name: workspaces.name,
  domain: workspaces.domain,
  timezone: workspaces.timezone,
  status: workspaces.status,
};

export type InstallRow = {
  teamId: string;
  name: string;
  domain: string;
  timezone: string;
  botTokenSealed: string;
  /** Token rotation: the sealed refresh token and the expiry (both null without rotation). */
  botRefreshTokenSealed: string | null;
  botTokenExpiresAt: Date | null;
  botUserId: string | null;
  appId: string | null;
  botScopes: string;
};

export const workspacesRepo = (db: Db) => ({
  async listForUser(userId: string): Promise<Workspace[]> {
    return db
      .select({ ...workspaceColumns, role: workspaceAdmins.role })
      .from(workspaceAdmins)
      .innerJoin(workspaces, eq(workspaces.teamId, workspaceAdmins.teamId))
      .where(eq(workspaceAdmins.userId, userId))
      .orderBy(asc(workspaceAdmins.createdAt), asc(workspaces.name));
  },
  async find(teamId: string) {
    const [row] = await db.select().from(workspaces).where(eq(workspaces.teamId, teamId)).limit(1);
    return row;
  },
  async listActive() {
    return db.select().from(workspaces).where(eq(workspaces.status, 'active'));
  },
  /** Workspaces' timezones; `runner` is the open transaction when the caller holds one. */
  async timezones(teamIds: string[], runner: Tx = db): Promise<Map<string, string>> {
    if (teamIds.length === 0) return new Map();
    const rows = await typedRows<{ team_id: string; timezone: string }>(
      runner,
      sql`select ${workspaces.teamId} as team_id, ${workspaces.timezone} as timezone from ${workspaces}
          where ${workspaces.teamId} = any(${textArray(teamIds)}::text[])`,
    );
    return new Map(rows.map((r) => [r.team_id, r.timezone]));
  },
  async allTimezones(): Promise<Map<string, string>> {
    const rows = await db
      .select({ teamId: workspaces.teamId, timezone: workspaces.timezone })
      .from(workspaces);
    return new Map(rows.map((r) => [r.teamId, r.timezone]));
  },
  async isAdmin(userId: string, teamId: string): Promise<boolean> {
    const rows = await db
      .select({ teamId: workspaceAdmins.teamId })
      .from(workspaceAdmins)
      .where(and(eq(workspaceAdmins.userId, userId), eq(workspaceAdmins.teamId, teamId)))
      .limit(1);
    return rows.length === 1;
  },
  /** The user's role in the workspace, or undefined when they do not administer it. */
  async roleOf(userId: string, teamId: string): Promise<Role | undefined> {
    const [row] = await db
      .select({ role: workspaceAdmins.role })
      .from(workspaceAdmins)
      .where(and(eq(workspaceAdmins.userId, userId), eq(workspaceAdmins.teamId, teamId)))
      .limit(1);
    return row?.role;
  },
  /** Creates or refreshes the workspace from an install (a reinstall reconnects it). */
  async upsertInstall(row: InstallRow): Promise<void> {
    const values = {
      ...row,
      botTokenRefreshingUntil: null,
      status: 'active' as const,
      disconnectedAt: null,
      disconnectReason: null,
      updatedAt: new Date(),
    };
    await db.insert(workspaces).values(values).onConflictDoUpdate({ target: workspaces.teamId, set: values });
  },
  /**
   * Makes a user an admin of the workspace as the Slack user they authorized as. Without a user token (an install
   * asks for none), an admin who authorized as the same Slack user before keeps the token they have.
   */
  async upsertAdmin(row: {
    teamId: string;
    userId: string;
    slackUserId: string;
    userTokenSealed: string | null;
    userScopes: string | null;
  }) {
    const sameUser = sql`${workspaceAdmins.slackUserId} = excluded.slack_user_id`;
    await db
      .insert(workspaceAdmins)
      .values({ ...row, role: 'owner' })
      .onConflictDoUpdate({
        target: [workspaceAdmins.teamId, workspaceAdmins.userId],
        set: {
          // Whoever installs or adds themselves as admin through Slack is an Owner (Owner is the top: never a demotion).
          role: 'owner',
          slackUserId: row.slackUserId,
          userTokenSealed:
            row.userTokenSealed ??
            sql`case when ${sameUser} then ${workspaceAdmins.userTokenSealed} else null end`,
          userScopes:
            row.userTokenSealed !== null
              ? row.userScopes
              : sql`case when ${sameUser} then ${workspaceAdmins.userScopes} else null end`,
        },
      });
  },
  /** A Slack user an admin may send as, with their token: added, or replaced for the same Slack user. */
  async upsertSender(row: {
    teamId: string;
    slackUserId: string;
    userTokenSealed: string;
    userRefreshTokenSealed: string | null;
    userTokenExpiresAt: Date | null;
    userScopes: string | null;
    addedBy: string;
  }) {
    await db
      .insert(workspaceSenders)
      .values(row)
      .onConflictDoUpdate({
        target: [workspaceSenders.teamId, workspaceSenders.slackUserId],
        set: {
          userTokenSealed: row.userTokenSealed,
          userRefreshTokenSealed: row.userRefreshTokenSealed,
          userTokenExpiresAt: row.userTokenExpiresAt,
          userTokenRefreshingUntil: null,
          userScopes: row.userScopes,
          addedBy: row.addedBy,
        },
      });
  },
  /** The Slack users admins may send as, oldest first (`userId`: the Flywheel account that added them). */
  async listAdmins(teamId: string) {
    return db
      .select({
        userId: workspaceSenders.addedBy,
        slackUserId: workspaceSenders.slackUserId,
        hasToken: isNotNull(workspaceSenders.userTokenSealed),
      })
      .from(workspaceSenders)
      .where(eq(workspaceSenders.teamId, teamId))
      .orderBy(asc(workspaceSenders.createdAt));
  },
  /** Whether a Flywheel admin of the workspace authorized as this Slack user (with or without a user token). */
  async isAdminSlackUser(teamId: string, slackUserId: string): Promise<boolean> {
    const rows = await db
      .select({ teamId: workspaceAdmins.teamId })
      .from(workspaceAdmins)
      .where(and(eq(workspaceAdmins.teamId, teamId), eq(workspaceAdmins.slackUserId, slackUserId)))
      .limit(1);
    return rows.length === 1;
  },
  /**
   * The Slack user a Flywheel admin is in a workspace: the one they authorized as, else the workspace's member
   * with their account's e-mail (an invited admin who has not used Add as Admin); null when neither is known.
   */
  async slackUserOf(teamId: string, userId: string): Promise<string | null> {
    const [row] = await typedRows<{ id: string | null }>(
      db,
      sql`select coalesce(a.slack_user_id, (
          select m.member_id from ${slackMembers} m
          where m.team_id = a.team_id and lower(m.email) = lower(u.email) and not m.deleted and not m.is_bot
          order by m.member_id limit 1)) as id
        from workspace_admins a join ${users} u on u.id = a.user_id
        where a.team_id = ${teamId} and a.user_id = ${userId}`,
    );
    return row?.id ?? null;
  },
  /**
   * A stored token as the token provider reads it: the bot token of an active workspace (no `slackUserId`), or
   * the user token of a Slack user admins send as. Undefined when there is none.
   */
  async storedToken(key: TokenKey): Promise<StoredToken | undefined> {
    if (key.slackUserId === undefined) {
      const [row] = await db
        .select({
          tokenSealed: workspaces.botTokenSealed,
          refreshSealed: workspaces.botRefreshTokenSealed,
          expiresAt: workspaces.botTokenExpiresAt,
        })
        .from(workspaces)
        .where(and(eq(workspaces.teamId, key.teamId), eq(workspaces.status, 'active')))
        .limit(1);
      return row?.tokenSealed ? { ...row, tokenSealed: row.tokenSealed } : undefined;
    }
    const [row] = await db
      .select({
        tokenSealed: workspaceSenders.userTokenSealed,
        refreshSealed: workspaceSenders.userRefreshTokenSealed,
        expiresAt: workspaceSenders.userTokenExpiresAt,
      })
      .from(workspaceSenders)
      .where(senderIs(key.teamId, key.slackUserId))
      .limit(1);
    return row;
  },
  /**
   * Claims a token's refresh for `leaseSeconds` (the database's clock): only while the stored token is still
   * `seenSealed` and no live claim exists. Answers the sealed refresh token to use, or null (not claimed).
   */
  async claimRefresh(key: TokenKey, seenSealed: string, leaseSeconds: number): Promise<string | null> {
    const until = sql`now() + make_interval(secs => ${leaseSeconds})`;
    if (key.slackUserId === undefined) {
      const [row] = await db
        .update(workspaces)
        .set({ botTokenRefreshingUntil: until })
        .where(
          and(
            eq(workspaces.teamId, key.teamId),
            eq(workspaces.status, 'active'),
            eq(workspaces.botTokenSealed, seenSealed),
            isNotNull(workspaces.botRefreshTokenSealed),
            or(
              isNull(workspaces.botTokenRefreshingUntil),
              lt(workspaces.botTokenRefreshingUntil, sql`now()`),
            ),
          ),
        )
        .returning({ refresh: workspaces.botRefreshTokenSealed });
      return row?.refresh ?? null;
    }
    const [row] = await db
      .update(workspaceSenders)
      .set({ userTokenRefreshingUntil: until })
      .where(
        and(
          senderIs(key.teamId, key.slackUserId),
          eq(workspaceSenders.userTokenSealed, seenSealed),
          isNotNull(workspaceSenders.userRefreshTokenSealed),
          or(
            isNull(workspaceSenders.userTokenRefreshingUntil),
            lt(workspaceSenders.userTokenRefreshingUntil, sql`now()`),
          ),
        ),
      )
      .returning({ refresh: workspaceSenders.userRefreshTokenSealed });
    return row?.refresh ?? null;
  },
  /** Stores a refreshed pair and ends the claim. */
  async storeRefreshed(
    key: TokenKey,
    next: { tokenSealed: string; refreshSealed: string; expiresAt: Date | null },
  ): Promise<void> {
    if (key.slackUserId === undefined) {
      await db
        .update(workspaces)
        .set({
          botTokenSealed: next.tokenSealed,
          botRefreshTokenSealed: next.refreshSealed,
          botTokenExpiresAt: next.expiresAt,
          botTokenRefreshingUntil: null,
          updatedAt: new Date(),
        })
        .where(eq(workspaces.teamId, key.teamId));
      return;
    }
    await db
      .update(workspaceSenders)
      .set({
        userTokenSealed: next.tokenSealed,
        userRefreshTokenSealed: next.refreshSealed,
        userTokenExpiresAt: next.expiresAt,
        userTokenRefreshingUntil: null,
      })
      .where(senderIs(key.teamId, key.slackUserId));
    // The admin's own row keeps the same user token (the old one stops working when it expires).
    await db
      .update(workspaceAdmins)
      .set({ userTokenSealed: next.tokenSealed })
      .where(
        and(
          eq(workspaceAdmins.teamId, key.teamId),
          eq(workspaceAdmins.slackUserId, key.slackUserId),
          isNotNull(workspaceAdmins.userTokenSealed),
        ),
      );
  },
  /** Ends a claim without a new token (the refresh failed for a reason worth another try later). */
  async releaseRefresh(key: TokenKey): Promise<void> {
    if (key.slackUserId === undefined)
      await db
        .update(workspaces)
        .set({ botTokenRefreshingUntil: null })
        .where(eq(workspaces.teamId, key.teamId));
    else
      await db
        .update(workspaceSenders)
        .set({ userTokenRefreshingUntil: null })
        .where(senderIs(key.teamId, key.slackUserId));
  },
  async createState(row: { state: string; userId: string; teamId: string | null; expiresAt: Date }) {
    await db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date()));
    await db.insert(oauthStates).values(row);
  },
  /** Uses a live state once; returns who started the round trip. */
  async consumeState(state: string) {
    const [row] = await db
      .update(oauthStates)
      .set({ usedAt: new Date() })
      .where(
        and(eq(oauthStates.state, state), isNull(oauthStates.usedAt), gt(oauthStates.expiresAt, new Date())),
      )
      .returning({ userId: oauthStates.userId, teamId: oauthStates.teamId });
    return row;
  },
  async markDisconnected(teamId: string, reason: string): Promise<void> {
    await db
      .update(workspaces)
      .set({
        status: 'disconnected',
        disconnectedAt: new Date(),
        disconnectReason: reason,
        botTokenSealed: null,
        botRefreshTokenSealed: null,
        botTokenExpiresAt: null,
        botTokenRefreshingUntil: null,
        updatedAt: new Date(),
      })
      .where(eq(workspaces.teamId, teamId));
  },
  async forgetUserTokens(teamId: string, slackUserIds: string[]): Promise<void> {
    if (slackUserIds.length === 0) return;
    await db
      .update(workspaceAdmins)
      .set({ userTokenSealed: null, userScopes: null })
      .where(and(eq(workspaceAdmins.teamId, teamId), inArray(workspaceAdmins.slackUserId, slackUserIds)));
    await db
      .delete(workspaceSenders)
      .where(and(eq(workspaceSenders.teamId, teamId), inArray(workspaceSenders.slackUserId, slackUserIds)));
  },

  /** Invites (or invites again) an e-mail address to administer a workspace. */
  async upsertInvitation(row: {
    teamId: string;
    email: string;
    invitedBy: string;
    role: Role;
    expiresAt: Date;
  }) {
    const values = { ...row, createdAt: new Date(), acceptedAt: null, acceptedBy: null };
    await db
      .insert(workspaceInvitations)
      .values(values)
      .onConflictDoUpdate({ target: [workspaceInvitations.teamId, workspaceInvitations.email], set: values });
  },
  /** Accepts the live invitations of an e-mail for a user: each makes them an admin (once). */
  async acceptInvitations(userId: string, email: string): Promise<string[]> {
    return db.transaction(async (tx) => {
      const accepted = await tx
        .update(workspaceInvitations)
        .set({ acceptedAt: new Date(), acceptedBy: userId })
        .where(
          and(
            eq(workspaceInvitations.email, email),
            isNull(workspaceInvitations.acceptedAt),
            gt(workspaceInvitations.expiresAt, new Date()),
          ),
        )
        .returning({ teamId: workspaceInvitations.teamId, role: workspaceInvitations.role });
      // Accepting gives the invitation's role; an admin already there keeps theirs.
      if (accepted.length > 0)
        await tx
          .insert(workspaceAdmins)
          .values(accepted.map((a) => ({ teamId: a.teamId, userId, role: a.role })))
          .onConflictDoNothing();
      return accepted.map((a) => a.teamId);
    });
  },

  /** The workspace's admins with their account and role, Owners first. */
  async team(teamId: string) {
    return db
      .select({
        userId: workspaceAdmins.userId,
        username: users.username,
        email: users.email,
        role: workspaceAdmins.role,
        addedAt: workspaceAdmins.createdAt,
      })
      .from(workspaceAdmins)
      .innerJoin(users, eq(users.id, workspaceAdmins.userId))
      .where(eq(workspaceAdmins.teamId, teamId))
      .orderBy(
        sql`case ${workspaceAdmins.role} when 'owner' then 0 when 'editor' then 1 else 2 end`,
        asc(workspaceAdmins.createdAt),
      );
  },
  /** The workspace's invitations not yet accepted and not expired, newest first. */
  async pendingInvitations(teamId: string) {
    return db
      .select({
        email: workspaceInvitations.email,
        role: workspaceInvitations.role,
        invitedBy: users.email,
        createdAt: workspaceInvitations.createdAt,
        expiresAt: workspaceInvitations.expiresAt,
      })
      .from(workspaceInvitations)
      .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
      .where(
        and(
          eq(workspaceInvitations.teamId, teamId),
          isNull(workspaceInvitations.acceptedAt),
          gt(workspaceInvitations.expiresAt, new Date()),
        ),
      )
      .orderBy(sql`${workspaceInvitations.createdAt} desc`);
  },
  /**
   * Changes an admin's role (`role`) or removes them (`null`), in one transaction that locks the workspace's
   * admins, so two Owners demoting each other at once cannot leave it without one. Answers 'not-found' when they
   * are not an admin, 'last-owner' when the change would leave no Owner.
   */
  async changeAdmin(
    teamId: string,
    userId: string,
    role: Role | null,
  ): Promise<'ok' | 'not-found' | 'last-owner'> {
    return db.transaction(async (tx) => {
      const rows = await typedRows<{ user_id: string; role: Role }>(
        tx,
        sql`select user_id, role from workspace_admins where team_id = ${teamId} order by user_id for update`,
      );
      const target = rows.find((r) => r.user_id === userId);
      if (!target) return 'not-found';
      const owners = rows.filter((r) => r.role === 'owner').length;
      if (target.role === 'owner' && role !== 'owner' && owners <= 1) return 'last-owner';
      const mine = and(eq(workspaceAdmins.teamId, teamId), eq(workspaceAdmins.userId, userId));
      if (role === null) await tx.delete(workspaceAdmins).where(mine);
      else await tx.update(workspaceAdmins).set({ role }).where(mine);
      return 'ok';
    });
  },
  /** Withdraws a pending invitation; false when there is none for that address. */
  async revokeInvitation(teamId: string, email: string): Promise<boolean> {
    const rows = await db
      .delete(workspaceInvitations)
      .where(
        and(
          eq(workspaceInvitations.teamId, teamId),
          eq(workspaceInvitations.email, email),
          isNull(workspaceInvitations.acceptedAt),
        ),
      )
      .returning({ email: workspaceInvitations.email });
    return rows.length > 0;
  },

  async createApiKey(row: {
    id: string;
    teamId: string;
    name: string;
    scope: ApiKeyScope;
    keyHash: string;
    prefix: string;
    createdBy: string;
  }) {
    const [created] = await db.insert(workspaceApiKeys).values(row).returning();
    return created!;
  },
  /** The workspace's live (not revoked) keys, newest first, with their creator's e-mail. */
  async listApiKeys(teamId: string) {
    return db
      .select({
        id: workspaceApiKeys.id,
        name: workspaceApiKeys.name,
        scope: workspaceApiKeys.scope,
        prefix: workspaceApiKeys.prefix,
        createdBy: users.email,
        createdAt: workspaceApiKeys.createdAt,
        lastUsedAt: workspaceApiKeys.lastUsedAt,
      })
      .from(workspaceApiKeys)
      .leftJoin(users, eq(users.id, workspaceApiKeys.createdBy))
      .where(and(eq(workspaceApiKeys.teamId, teamId), isNull(workspaceApiKeys.revokedAt)))
      .orderBy(sql`${workspaceApiKeys.createdAt} desc`);
  },
  async revokeApiKey(teamId: string, id: string): Promise<boolean> {
    const rows = await db
      .update(workspaceApiKeys)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(workspaceApiKeys.teamId, teamId),
          eq(workspaceApiKeys.id, id),
          isNull(workspaceApiKeys.revokedAt),
        ),
      )
      .returning({ id: workspaceApiKeys.id });
    return rows.length > 0;
  },
  /** A live key by its hash, with its creator's e-mail (undefined when unknown or revoked). */
  async findApiKey(keyHash: string) {
    const [row] = await db
      .select({
        id: workspaceApiKeys.id,
        name: workspaceApiKeys.name,
        teamId: workspaceApiKeys.teamId,
        scope: workspaceApiKeys.scope,
        createdBy: workspaceApiKeys.createdBy,
        email: users.email,
        lastUsedAt: workspaceApiKeys.lastUsedAt,
      })
      .from(workspaceApiKeys)
      .innerJoin(users, eq(users.id, workspaceApiKeys.createdBy))
      .where(and(eq(workspaceApiKeys.keyHash, keyHash), isNull(workspaceApiKeys.revokedAt)))
      .limit(1);
    return row;
  },
  async touchApiKey(id: string, at: Date): Promise<void> {
    await db.update(workspaceApiKeys).set({ lastUsedAt: at }).where(eq(workspaceApiKeys.id, id));
  },
});

import { index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../auth/table.ts';

/** A connected Slack workspace (team_id, workspace_name, domain, timezone). */
export const workspaces = pgTable('workspaces', {
  teamId: text('team_id').primaryKey(),
  name: text('workspace_name').notNull(),
  domain: text('domain').notNull(),
  timezone: text('timezone').notNull().default('UTC'),
  /** The bot token, sealed with the secrets key (never sent to the browser, never logged). */
  botTokenSealed: text('bot_token_sealed'),
  /**
   * Token rotation (null without it): the bot token's refresh token, sealed like the token, and when the token
   * expires. `botTokenRefreshingUntil`: a process claimed the refresh until then (slack/token-provider.ts).
   */
  botRefreshTokenSealed: text('bot_refresh_token_sealed'),
  botTokenExpiresAt: timestamp('bot_token_expires_at', { withTimezone: true }),
  botTokenRefreshingUntil: timestamp('bot_token_refreshing_until', { withTimezone: true }),
  botUserId: text('bot_user_id'),
  appId: text('app_id'),
  botScopes: text('bot_scopes'),
  status: text('status', { enum: ['active', 'disconnected'] })
    .notNull()
    .default('active'),
  disconnectedAt: timestamp('disconnected_at', { withTimezone: true }),
  disconnectReason: text('disconnect_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Which Flywheel users administer which workspace, which Slack user each one is, and their user token. */
export const workspaceAdmins = pgTable(
  'workspace_admins',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.teamId, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slackUserId: text('slack_user_id'),
    userTokenSealed: text('user_token_sealed'),
    userScopes: text('user_scopes'),
    /**
     * Their role here (issue 36): 'owner' manages admins and API keys, 'editor' acts, 'viewer' reads. Whoever
     * installs or adds themselves through Slack is an Owner; the admins from before roles became Owners.
     */
    role: text('role', { enum: ['owner', 'editor', 'viewer'] })
      .notNull()
      .default('owner'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] })],
);

/** The OAuth round trip, bound to the signed-in user who started it. */
export const oauthStates = pgTable('slack_oauth_states', {
  /** Present for 'Add as Admin' on an existing workspace. */
  teamId: text('team_id'),
  state: text('state').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * An existing admin's invitation of another person, by e-mail, to administer a workspace in Flywheel. The
 * invitee becomes an admin when they log in with a verified account of that address (before `expiresAt`).
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.teamId, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedBy: text('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The role accepting gives (the invitations from before roles give Owner, as they did). */
    role: text('role', { enum: ['owner', 'editor', 'viewer'] })
      .notNull()
      .default('owner'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.email] }), index('workspace_invitations_email_idx').on(t.email)],
);

/**
 * The Slack users an admin may send as (Send as Admin): each Slack admin who authorised Flywheel with Add as Admin
 * (the install, Create Workspace, asks for no user token), with their sealed user token. One row per Slack user, whichever Flywheel account
 * authorised it (`added_by`, the latest): a second Slack admin added by the same account joins the first instead
 * of replacing it.
 */
export const workspaceSenders = pgTable(
  'workspace_senders',
  {
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.teamId, { onDelete: 'cascade' }),
    slackUserId: text('slack_user_id').notNull(),
    userTokenSealed: text('user_token_sealed').notNull(),
    /** Token rotation (null without it): the user token's sealed refresh token, expiry and refresh claim. */
    userRefreshTokenSealed: text('user_refresh_token_sealed'),
    userTokenExpiresAt: timestamp('user_token_expires_at', { withTimezone: true }),
    userTokenRefreshingUntil: timestamp('user_token_refreshing_until', { withTimezone: true }),
    userScopes: text('user_scopes'),
    addedBy: text('added_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.slackUserId] })],
);

/**
 * A workspace's API keys (issue 36): a bearer key for /api/v0 that acts on behalf of the Owner who created it,
 * capped by its scope ('read', or 'act': read and act; never manage). Only the key's SHA-256 is stored (the key is
 * 32 random bytes, shown once); `prefix` is its first characters, to recognise it in a list.
 */
export const workspaceApiKeys = pgTable(
  'workspace_api_keys',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references(() => workspaces.teamId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'act'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('workspace_api_keys_hash_key').on(t.keyHash),
    index('workspace_api_keys_team_idx').on(t.teamId),
  ],
);

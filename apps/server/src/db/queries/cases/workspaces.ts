import { workspacesRepo } from '../../../modules/workspaces/repo.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema.ts';
import { AT, LATER, T, type QueryCase } from './common.ts';
import { USER, USER2, seedWorkspace } from './fixture.ts';

const file = 'workspaces';
const BOT = { teamId: T };
/** A Slack user admins send as. */
const SENDER = { teamId: T, slackUserId: 'U2' };

/** Bob's live invitation to T, as an Editor. */
async function seedInvitation(db: Db) {
  await seedWorkspace(db);
  const invitation = {
    teamId: T,
    email: 'bob@example.com',
    invitedBy: USER,
    role: 'editor' as const,
    expiresAt: LATER,
    acceptedAt: null,
  };
  await db
    .insert(schema.workspaceInvitations)
    .values(invitation)
    .onConflictDoUpdate({
      target: [schema.workspaceInvitations.teamId, schema.workspaceInvitations.email],
      set: invitation,
    });
}

export const workspaces: QueryCase[] = [
  { file, name: 'workspacesRepo.timezones', run: (db) => workspacesRepo(db).timezones([T]) },
  {
    file,
    name: 'workspacesRepo.listForUser',
    seed: seedWorkspace,
    run: (db) => workspacesRepo(db).listForUser(USER),
  },
  { file, name: 'workspacesRepo.find', run: (db) => workspacesRepo(db).find(T) },
  { file, name: 'workspacesRepo.listActive', run: (db) => workspacesRepo(db).listActive() },
  { file, name: 'workspacesRepo.allTimezones', run: (db) => workspacesRepo(db).allTimezones() },
  { file, name: 'workspacesRepo.isAdmin', run: (db) => workspacesRepo(db).isAdmin(USER, T) },
  { file, name: 'workspacesRepo.roleOf', run: (db) => workspacesRepo(db).roleOf(USER, T) },
  {
    file,
    name: 'workspacesRepo.upsertInstall',
    run: (db) =>
      workspacesRepo(db).upsertInstall({
        teamId: T,
        name: 'Snapshot',
        domain: 'snapshot',
        timezone: 'Europe/Berlin',
        botTokenSealed: 'sealed-bot',
        botRefreshTokenSealed: 'sealed-refresh',
        botTokenExpiresAt: LATER,
        botUserId: 'B1',
        appId: 'A1',
        botScopes: 'chat:write',
      }),
  },
  {
    file,
    name: 'workspacesRepo.upsertAdmin',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).upsertAdmin({
        teamId: T,
        userId: USER,
        slackUserId: 'U1',
        userTokenSealed: 'sealed-user',
        userScopes: 'chat:write',
      }),
  },
  {
    file,
    name: 'workspacesRepo.upsertAdmin (no user token)',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).upsertAdmin({
        teamId: T,
        userId: USER,
        slackUserId: 'U1',
        userTokenSealed: null,
        userScopes: null,
      }),
  },
  {
    file,
    name: 'workspacesRepo.upsertSender',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).upsertSender({
        ...SENDER,
        userTokenSealed: 'sealed-user',
        userRefreshTokenSealed: 'sealed-user-refresh',
        userTokenExpiresAt: LATER,
        userScopes: 'chat:write',
        addedBy: USER,
      }),
  },
  { file, name: 'workspacesRepo.listAdmins', run: (db) => workspacesRepo(db).listAdmins(T) },
  {
    file,
    name: 'workspacesRepo.isAdminSlackUser',
    run: (db) => workspacesRepo(db).isAdminSlackUser(T, 'U1'),
  },
  { file, name: 'workspacesRepo.slackUserOf', run: (db) => workspacesRepo(db).slackUserOf(T, USER) },
  { file, name: 'workspacesRepo.storedToken', run: (db) => workspacesRepo(db).storedToken(BOT) },
  {
    file,
    name: 'workspacesRepo.storedToken (a Slack user)',
    run: (db) => workspacesRepo(db).storedToken(SENDER),
  },
  {
    file,
    name: 'workspacesRepo.claimRefresh',
    run: (db) => workspacesRepo(db).claimRefresh(BOT, 'sealed-bot', 30),
  },
  {
    file,
    name: 'workspacesRepo.claimRefresh (a Slack user)',
    run: (db) => workspacesRepo(db).claimRefresh(SENDER, 'sealed-user', 30),
  },
  {
    file,
    name: 'workspacesRepo.storeRefreshed',
    run: (db) =>
      workspacesRepo(db).storeRefreshed(BOT, {
        tokenSealed: 'sealed-bot-2',
        refreshSealed: 'sealed-refresh-2',
        expiresAt: LATER,
      }),
  },
  {
    file,
    name: 'workspacesRepo.storeRefreshed (a Slack user)',
    run: (db) =>
      workspacesRepo(db).storeRefreshed(SENDER, {
        tokenSealed: 'sealed-user-2',
        refreshSealed: 'sealed-user-refresh-2',
        expiresAt: LATER,
      }),
  },
  { file, name: 'workspacesRepo.releaseRefresh', run: (db) => workspacesRepo(db).releaseRefresh(BOT) },
  {
    file,
    name: 'workspacesRepo.releaseRefresh (a Slack user)',
    run: (db) => workspacesRepo(db).releaseRefresh(SENDER),
  },
  {
    file,
    name: 'workspacesRepo.createState',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).createState({ state: 'state-1', userId: USER, teamId: T, expiresAt: LATER }),
  },
  { file, name: 'workspacesRepo.consumeState', run: (db) => workspacesRepo(db).consumeState('state-1') },
  {
    file,
    name: 'workspacesRepo.markDisconnected',
    run: (db) => workspacesRepo(db).markDisconnected('T0GONE', 'token_revoked'),
  },
  {
    file,
    name: 'workspacesRepo.forgetUserTokens',
    run: (db) => workspacesRepo(db).forgetUserTokens(T, ['U2']),
  },
  {
    file,
    name: 'workspacesRepo.upsertInvitation',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).upsertInvitation({
        teamId: T,
        email: 'bob@example.com',
        invitedBy: USER,
        role: 'editor',
        expiresAt: LATER,
      }),
  },
  {
    file,
    name: 'workspacesRepo.acceptInvitations',
    seed: seedInvitation,
    run: (db) => workspacesRepo(db).acceptInvitations(USER2, 'bob@example.com'),
  },
  { file, name: 'workspacesRepo.team', run: (db) => workspacesRepo(db).team(T) },
  { file, name: 'workspacesRepo.pendingInvitations', run: (db) => workspacesRepo(db).pendingInvitations(T) },
  {
    file,
    name: 'workspacesRepo.changeAdmin',
    seed: seedWorkspace,
    run: (db) => workspacesRepo(db).changeAdmin(T, USER, 'owner'),
  },
  {
    file,
    name: 'workspacesRepo.changeAdmin (removal)',
    seed: async (db) => {
      await seedWorkspace(db);
      await db
        .insert(schema.workspaceAdmins)
        .values({ teamId: T, userId: USER2, role: 'editor' })
        .onConflictDoNothing();
    },
    run: (db) => workspacesRepo(db).changeAdmin(T, USER2, null),
  },
  {
    file,
    name: 'workspacesRepo.revokeInvitation',
    run: (db) => workspacesRepo(db).revokeInvitation(T, 'bob@example.com'),
  },
  {
    file,
    name: 'workspacesRepo.createApiKey',
    seed: seedWorkspace,
    run: (db) =>
      workspacesRepo(db).createApiKey({
        id: 'key-1',
        teamId: T,
        name: 'CI',
        scope: 'read',
        keyHash: 'key-hash-1',
        prefix: 'fw_snap',
        createdBy: USER,
      }),
  },
  { file, name: 'workspacesRepo.listApiKeys', run: (db) => workspacesRepo(db).listApiKeys(T) },
  { file, name: 'workspacesRepo.findApiKey', run: (db) => workspacesRepo(db).findApiKey('key-hash-1') },
  { file, name: 'workspacesRepo.touchApiKey', run: (db) => workspacesRepo(db).touchApiKey('key-1', AT) },
  { file, name: 'workspacesRepo.revokeApiKey', run: (db) => workspacesRepo(db).revokeApiKey(T, 'key-1') },
];

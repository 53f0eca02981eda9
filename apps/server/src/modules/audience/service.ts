import type { ResolvedAudienceInput } from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { audienceRepo } from './repo.ts';

export type Recipients = { members: string[]; channels: string[] };

/** The members a Members-screen filter matches (every page), from the members list module. */
export type FilteredMembers = (
  teamId: string,
  filter: NonNullable<ResolvedAudienceInput['filter']>,
) => Promise<string[]>;

/** The members of buckets' last runs; a bucket id this workspace does not have is a 400. */
export type BucketMembers = (teamId: string, bucketIds: number[]) => Promise<string[]>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const listed = (items: string[]) =>
  items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;

/**
 * Targets -> recipients, for every sender (messages, automations, schedules, forms, polls, workflows): members by
 * id or e-mail, tags, channels' members, the whole workspace, buckets' last runs and a Members filter, each member once, bots and
 * deactivated members left out; channels to post in. Anything that names no member or channel of this workspace
 * is refused with a 400 that says which entries, so nothing is sent to a half-understood audience.
 */
export const audienceService = (deps: {
  db: Db;
  filteredMembers: FilteredMembers;
  bucketMembers: BucketMembers;
}) => {
  const repo = audienceRepo(deps.db);

  return {
    async resolve(teamId: string, a: ResolvedAudienceInput): Promise<Recipients> {
      const entries = [...new Set(a.dms.members.map((e) => e.trim()).filter(Boolean))];
      const emails = entries.filter((e) => EMAIL.test(e));
      const ids = entries.filter((e) => !EMAIL.test(e));
      const known = await repo.knownMembers(teamId, ids, emails);
      const unknown = [
        ...ids.filter((id) => !known.ids.has(id)),
        ...emails.filter((e) => !known.emails.has(e.toLowerCase())),
      ];
      if (unknown.length > 0)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `No member of this workspace matches: ${listed(unknown)}`,
        );

      const tagIds = [...new Set(a.dms.tags)];
      const knownTags = await repo.knownTags(teamId, tagIds);
      const badTags = tagIds.filter((t) => !knownTags.has(t));
      if (badTags.length > 0)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `Unknown tag id(s) in this workspace: ${listed(badTags.map(String))}`,
        );

      const channelIds = [...new Set([...a.channel_ids, ...a.dms.channels])];
      const channels = await repo.knownChannels(teamId, channelIds);
      const badChannels = channelIds.filter((c) => !channels.has(c));
      if (badChannels.length > 0)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `No channel of this workspace matches: ${listed(badChannels)}`,
        );
      const archived = a.channel_ids.filter((c) => channels.get(c)?.archived);
      if (archived.length > 0)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `These channels are archived in Slack: ${listed(archived)}`,
        );

      const members = new Set(
        await repo.members(teamId, {
          everyone: a.sendtoworkspace,
          ids,
          emails,
          tagIds,
          channelIds: [...new Set(a.dms.channels)],
        }),
      );
      // Members of buckets and of a Members filter pass the same rule (no bots, no deactivated members).
      const picked = [
        ...(a.buckets?.length ? await deps.bucketMembers(teamId, a.buckets) : []),
        ...(a.filter && !a.sendtoworkspace ? await deps.filteredMembers(teamId, a.filter) : []),
      ];
      if (picked.length > 0 && !a.sendtoworkspace)
        for (const id of await repo.members(teamId, {
          everyone: false,
          ids: picked,
          emails: [],
          tagIds: [],
          channelIds: [],
        }))
          members.add(id);
      return { members: [...members], channels: [...new Set(a.channel_ids)] };
    },
  };
};
export type AudienceService = ReturnType<typeof audienceService>;

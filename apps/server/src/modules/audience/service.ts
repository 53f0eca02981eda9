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

  /** A failure of one audience among many: the same 400s `resolve` throws. */
  const refused = (message: string) => new AppError('VALIDATION_ERROR', 400, message);

  const service = {
    /**
     * Many audiences of one workspace at once (a minute's schedules), each answered as `resolve` would (its
     * recipients, or the error it would throw). Audiences of members and channels only are checked with two
     * statements for the whole batch; any other goes through `resolve`.
     */
    async resolveMany(teamId: string, inputs: ResolvedAudienceInput[]): Promise<(Recipients | Error)[]> {
      const simple = (a: ResolvedAudienceInput) =>
        !a.sendtoworkspace && !a.dms.tags.length && !a.dms.channels.length && !a.buckets?.length && !a.filter;
      const entriesOf = (a: ResolvedAudienceInput) => [
        ...new Set(a.dms.members.map((e) => e.trim()).filter(Boolean)),
      ];
      const batch = inputs.filter(simple);
      const allEntries = [...new Set(batch.flatMap(entriesOf))];
      const states = await repo.memberStates(
        teamId,
        allEntries.filter((e) => !EMAIL.test(e)),
        allEntries.filter((e) => EMAIL.test(e)),
      );
      const byId = new Map(states.map((s) => [s.member_id, s]));
      const byEmail = new Map<string, typeof states>();
      for (const s of states) if (s.email) byEmail.set(s.email, [...(byEmail.get(s.email) ?? []), s]);
      const channels = await repo.knownChannels(teamId, [...new Set(batch.flatMap((a) => a.channel_ids))]);

      return Promise.all(
        inputs.map(async (a): Promise<Recipients | Error> => {
          if (!simple(a)) return service.resolve(teamId, a).catch((err: Error) => err);
          const entries = entriesOf(a);
          const unknown = entries.filter((e) =>
            EMAIL.test(e) ? !byEmail.has(e.toLowerCase()) : !byId.has(e),
          );
          if (unknown.length > 0) return refused(`No member of this workspace matches: ${listed(unknown)}`);
          const channelIds = [...new Set(a.channel_ids)];
          const bad = channelIds.filter((c) => !channels.has(c));
          if (bad.length > 0) return refused(`No channel of this workspace matches: ${listed(bad)}`);
          const archived = a.channel_ids.filter((c) => channels.get(c)?.archived);
          if (archived.length > 0)
            return refused(`These channels are archived in Slack: ${listed(archived)}`);
          const members = new Set<string>();
          for (const e of entries)
            for (const s of EMAIL.test(e) ? byEmail.get(e.toLowerCase())! : [byId.get(e)!])
              if (s.reachable) members.add(s.member_id);
          return { members: [...members].sort(), channels: channelIds };
        }),
      );
    },

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
  return service;
};
export type AudienceService = ReturnType<typeof audienceService>;

import { AppError, notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { tagsRepo, type TagRef } from './repo.ts';

export type TagsService = ReturnType<typeof tagsService>;

/** Member tags of a workspace: create, assign to members, remove. */
export const tagsService = (db: Db) => {
  const repo = tagsRepo(db);
  return {
    list: (teamId: string) => repo.list(teamId),

    async create(teamId: string, name: string): Promise<TagRef> {
      const clean = name.trim().replace(/\s+/g, ' ');
      const made = await repo.create(teamId, clean);
      if (made) return made;
      const existing = await repo.findByName(teamId, clean);
      throw new AppError('CONFLICT', 409, `A tag named '${existing?.name ?? clean}' already exists`);
    },

    /** Adds the tags to the members; unknown tags or members are refused with a message naming them. */
    async addToMembers(teamId: string, memberIds: string[], tagIds: number[]) {
      const uniqueTags = [...new Set(tagIds)];
      const uniqueMembers = [...new Set(memberIds)];
      const known = await repo.existing(teamId, uniqueTags);
      if (known.length !== uniqueTags.length) {
        const missing = uniqueTags.filter((id) => !known.some((t) => t.id === id));
        throw notFound(`No tag with id ${missing.join(', ')} in this workspace`);
      }
      const members = await repo.existingMembers(teamId, uniqueMembers);
      const strangers = uniqueMembers.filter((id) => !members.has(id));
      if (strangers.length > 0)
        throw notFound(
          `Not a member of this workspace: ${strangers.slice(0, 5).join(', ')}${strangers.length > 5 ? ', …' : ''}`,
        );
      const added = await repo.assign(teamId, uniqueMembers, uniqueTags);
      const names = known.map((t) => t.name).join(', ');
      return {
        added,
        message: `Tag${known.length > 1 ? 's' : ''} ${names} added to ${uniqueMembers.length} member${uniqueMembers.length > 1 ? 's' : ''}`,
      };
    },

    async removeFromMember(teamId: string, memberId: string, tagId: number) {
      if (!(await repo.unassign(teamId, memberId, tagId)))
        throw notFound('This member does not have that tag');
      return { message: 'Tag removed' };
    },

    ofMembers: (teamId: string, memberIds: string[] | null) => repo.ofMembers(teamId, memberIds),
  };
};

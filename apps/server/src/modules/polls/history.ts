import type { Poll, Voter } from '@flywheel/shared/polls';
import type { PollsCore } from './core.ts';

/** What a poll's page and export read: the polls with their counts, who voted for what, PollDetails.csv. */
export const pollHistory = ({ repo, votesRepo, found, toPolls }: PollsCore) => ({
  async list(teamId: string, search?: string): Promise<Poll[]> {
    return toPolls(teamId, await repo.list(teamId, search?.trim() || undefined));
  },

  async info(teamId: string, id: number): Promise<Poll> {
    const [poll] = await toPolls(teamId, [await found(teamId, id)]);
    return poll!;
  },

  /** Who voted for what; an anonymous poll has no voters to show (its votes are counts only). */
  async voters(teamId: string, id: number): Promise<Voter[]> {
    const p = await found(teamId, id);
    if (p.ballot?.anonymous) return [];
    const rows = p.voting === 'buttons' ? await votesRepo.choiceVoters(p.id) : await votesRepo.voters(p.id);
    return rows.map((v) => ({
      user_id: v.member_id,
      email: v.email,
      name: v.name,
      value: p.options[v.option]?.value ?? '',
      emoji: p.options[v.option]?.emoji ?? '',
      voted_at: new Date(v.voted_at).toISOString(),
    }));
  },

  /**
   * The rows of PollDetails.csv: email, value (the option voted for), name; an anonymous poll's: each option
   * with its count, no email and no name.
   */
  async exportRows(
    teamId: string,
    id: number,
  ): Promise<{ email: string; value: string; name: string; votes?: number }[]> {
    const p = await found(teamId, id);
    if (p.ballot?.anonymous) {
      const counts = (await votesRepo.counts([p.id])).get(p.id) ?? new Map<number, number>();
      return p.options.map((o, i) => ({ email: '', value: o.value, name: '', votes: counts.get(i) ?? 0 }));
    }
    return (await this.voters(teamId, id)).map((v) => ({ email: v.email, value: v.value, name: v.name }));
  },
});

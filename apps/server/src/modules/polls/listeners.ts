import {
  canonicalEmoji,
  POLL_BUTTON_MAX_OPTIONS,
  POLL_OPTION_MAX,
  POLL_TEXTS,
  POLL_VOTE_ACTION,
} from '@flywheel/shared/polls';
import type { Tx } from '../../db/sql.ts';
import { ADD_BLOCK, ADD_INPUT, addOptionModal } from './render.ts';
import { CLOCK_SKEW_MS, SETTLE_WINDOW_MS, type PollsCore } from './core.ts';

/** A button pressed on a poll message (block_actions, as the interactivity listener reads it). */
export type PollButtonPayload = {
  team: { id: string };
  user: { id: string };
  trigger_id: string;
  channel?: { id: string } | null;
  container?: { channel_id?: string } | null;
  actions: { action_id: string; value?: string }[];
};
/** The "Add an option" modal submitted (view_submission). */
export type PollAddPayload = {
  team: { id: string } | null;
  user: { id: string; team_id?: string };
  view: {
    private_metadata?: string;
    state: { values: Record<string, Record<string, { value?: string | null }>> };
  };
};

/** Reactions Slack sends as a vote: the event of a member reacting on a message. */
export type ReactionEvent = {
  user: string;
  reaction: string;
  item: { type: string; channel?: string; ts?: string };
  event_ts?: string;
};

/**
 * How a poll vote is counted: reactions on an emoji poll's message (the events listener, module.ts) and the
 * buttons and the add-option modal of a button poll (the interactivity listeners).
 */
export const pollListeners = ({
  deps,
  repo,
  votesRepo,
  runnerRepo,
  now,
  voterOf,
  tell,
  openForVotes,
}: PollsCore) => ({
  /**
   * A vote button pressed (block_actions). In one transaction with the poll's row locked (so two workers
   * apply a poll's votes one after another, and the database's key keeps one row per voter and option): a
   * chosen option pressed again is withdrawn; single choice moves the vote; multiple choice adds it unless the
   * limit is reached. Refusals (closed, not a member here, over the limit) are told to the member alone.
   * Answers what happened; the messages are brought up to date by the coalesced refresh job.
   */
  async buttonVote(
    payload: PollButtonPayload,
  ): Promise<'added' | 'moved' | 'withdrawn' | 'limit' | 'closed' | 'refused' | 'ignored'> {
    const action = payload.actions[0];
    const m = /^(\d{1,9}):(\d{1,2})$/.exec(action?.value ?? '');
    const option = Number(action?.action_id.slice(POLL_VOTE_ACTION.length));
    if (!m || Number(m[2]) !== option) return 'ignored';
    const pollId = Number(m[1]);
    const teamId = payload.team.id;
    const member = payload.user.id;
    const channel = payload.channel?.id ?? payload.container?.channel_id ?? undefined;
    let limit = 0;
    const outcome = await deps.db.transaction(async (tx) => {
      const p = await votesRepo.lockForVote(tx, pollId);
      if (!p || p.team_id !== teamId || p.deleted_at || p.voting !== 'buttons') return 'ignored' as const;
      if (option >= p.options.length) return 'ignored' as const;
      // A valid signature says Slack sent it, not that this person may vote: a person of this workspace.
      if (!(await votesRepo.isPerson(tx, teamId, member))) return 'refused' as const;
      if (!openForVotes(p)) return 'closed' as const;
      const voter = voterOf(p, member);
      const chosen = await votesRepo.choicesOf(tx, p.id, voter);
      const at = p.ballot!.anonymous ? null : now();
      if (chosen.includes(option)) {
        await votesRepo.unchoose(tx, p.id, voter, option);
        return 'withdrawn' as const;
      }
      if (!p.ballot!.multiple) {
        await votesRepo.unchoose(tx, p.id, voter);
        await votesRepo.choose(tx, p.id, voter, option, at);
        return chosen.length ? ('moved' as const) : ('added' as const);
      }
      limit = p.ballot!.max_choices ?? 0;
      if (limit && chosen.length >= limit) return 'limit' as const;
      await votesRepo.choose(tx, p.id, voter, option, at);
      return 'added' as const;
    });
    if (outcome === 'added' || outcome === 'moved' || outcome === 'withdrawn')
      await deps.jobs.refresh(pollId);
    else if (outcome === 'closed') await tell(teamId, channel, member, POLL_TEXTS.votingClosed);
    else if (outcome === 'refused') await tell(teamId, channel, member, POLL_TEXTS.notMember);
    else if (outcome === 'limit') await tell(teamId, channel, member, POLL_TEXTS.choiceLimit(limit));
    return outcome;
  },

  /** "Add an option" pressed: opens the modal with one text input (views.open with the trigger_id). */
  async openAddOption(
    payload: PollButtonPayload,
  ): Promise<'opened' | 'refused' | 'closed' | 'full' | 'ignored'> {
    const pollId = Number(payload.actions[0]?.value);
    const teamId = payload.team.id;
    const member = payload.user.id;
    const channel = payload.channel?.id ?? payload.container?.channel_id ?? undefined;
    const p = Number.isSafeInteger(pollId) && pollId > 0 ? await repo.find(teamId, pollId) : undefined;
    if (!p || p.voting !== 'buttons' || !p.ballot?.allow_add) return 'ignored';
    if (!(await votesRepo.isPerson(deps.db, teamId, member))) {
      await tell(teamId, channel, member, POLL_TEXTS.notMember);
      return 'refused';
    }
    if (!openForVotes(p)) {
      await tell(teamId, channel, member, POLL_TEXTS.votingClosed);
      return 'closed';
    }
    if (p.options.length >= POLL_BUTTON_MAX_OPTIONS) {
      await tell(teamId, channel, member, POLL_TEXTS.optionsFull);
      return 'full';
    }
    const view = addOptionModal(p.id);
    try {
      if (!deps.botClient) throw new Error('no Slack client');
      await (await deps.botClient(teamId)).views.open({ trigger_id: payload.trigger_id, view });
      return 'opened';
    } catch (err) {
      deps.logger.warn({ err, teamId, poll: p.id }, 'could not open the add-option modal');
      return 'ignored';
    }
  },

  /**
   * The add-option modal submitted: the text (trimmed, not a copy of an option) is appended to the poll's
   * options (up to 10) in a transaction with the poll locked; the message then shows its button. Problems
   * go back to the modal under the input.
   */
  async addOption(
    payload: PollAddPayload,
  ): Promise<{ response_action: 'errors'; errors: Record<string, string> } | undefined> {
    const teamId = payload.team?.id ?? payload.user.team_id ?? '';
    let pollId = 0;
    try {
      pollId = Number((JSON.parse(payload.view.private_metadata ?? '{}') as { poll?: unknown }).poll);
    } catch {
      pollId = 0;
    }
    const error = (text: string) => ({ response_action: 'errors' as const, errors: { [ADD_BLOCK]: text } });
    const value = (payload.view.state.values[ADD_BLOCK]?.[ADD_INPUT]?.value ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!value) return error(POLL_TEXTS.optionEmpty);
    if (value.length > POLL_OPTION_MAX)
      return error(`An option can hold at most ${POLL_OPTION_MAX} characters`);
    const answer = await deps.db.transaction(async (tx) => {
      const p =
        Number.isSafeInteger(pollId) && pollId > 0 ? await votesRepo.lockForVote(tx, pollId) : undefined;
      if (!p || p.team_id !== teamId || p.deleted_at || p.voting !== 'buttons' || !p.ballot?.allow_add)
        return error(POLL_TEXTS.votingClosed);
      if (!(await votesRepo.isPerson(tx, teamId, payload.user.id))) return error(POLL_TEXTS.notMember);
      if (!openForVotes(p)) return error(POLL_TEXTS.votingClosed);
      if (p.options.length >= POLL_BUTTON_MAX_OPTIONS) return error(POLL_TEXTS.optionsFull);
      if (p.options.some((o) => o.value.toLowerCase() === value.toLowerCase()))
        return error(POLL_TEXTS.optionTaken);
      await votesRepo.setOptions(tx, p.id, [...p.options, { emoji: '', emoji_code: '', value }]);
      return undefined;
    });
    if (!answer) await deps.jobs.refresh(pollId);
    return answer;
  },

  /**
   * A reaction added or removed on a message (the events listener, inside its transaction): a vote when the
   * message is an open poll's and the emoji is one of its options, by a member who is not a bot. Answers
   * the poll whose votes changed.
   */
  async applyReaction(tx: Tx, teamId: string, e: ReactionEvent, added: boolean): Promise<number | null> {
    if (e.item.type !== 'message' || !e.item.channel || !e.item.ts) return null;
    let pollId = await votesRepo.pollOfMessage(tx, teamId, e.item.channel, e.item.ts);
    if (pollId === undefined) {
      // Its delivery may have posted it a moment ago: look at the polls whose messages are not all known.
      const at = e.event_ts ? Number(e.event_ts) * 1000 : now();
      for (const p of await votesRepo.unsettled(tx, teamId, at - SETTLE_WINDOW_MS)) {
        const posted = await deps.delivery.postedMessages(teamId, p.receipt_id, tx);
        await runnerRepo.saveMessages(tx, p.id, teamId, posted.messages);
      }
      pollId = await votesRepo.pollOfMessage(tx, teamId, e.item.channel, e.item.ts);
      if (pollId === undefined) return null;
    }
    const p = await votesRepo.forVote(tx, pollId);
    if (!p || p.deleted_at || p.closed_at || p.voting === 'buttons') return null;
    const ts =
      e.event_ts && /^\d{1,12}(\.\d{1,6})?$/.test(e.event_ts) ? e.event_ts : (now() / 1000).toFixed(6);
    const at = Number(ts) * 1000;
    if (at >= Date.parse(p.expires_at)) return null;
    // A reaction from before the poll was posted, or from the future, is not one Slack saw on it.
    if (at < Date.parse(p.post_at) - CLOCK_SKEW_MS || at > now() + CLOCK_SKEW_MS) return null;
    const option = p.options.findIndex((o) => canonicalEmoji(o.emoji_code) === canonicalEmoji(e.reaction));
    if (option < 0) return null;
    // Only the workspace's people vote: not a bot, nor an id it does not know (another workspace's member).
    if (!(await votesRepo.isPerson(tx, teamId, e.user))) return null;
    // Slack does not promise events in order: each is applied by its time, so the outcome is the same.
    const changed = await votesRepo.react(tx, {
      pollId,
      teamId,
      memberId: e.user,
      option,
      present: added,
      ts,
    });
    return changed ? pollId : null;
  },
});

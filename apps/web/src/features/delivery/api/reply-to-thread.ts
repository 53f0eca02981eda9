import { replyToMention } from '@flywheel/shared/endpoints/conversations';
import { replyToThread } from '@flywheel/shared/endpoints/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /quickaction/replytothread: a reply in the thread of the message `ts` in `channel_id`. */
export const useReplyToThread = () => useSendMutation(replyToThread);

/** POST /mentions/replytomention: the same reply, from the Mentions panel (the mention then shows 'Seen'). */
export const useReplyToMention = () => useSendMutation(replyToMention);

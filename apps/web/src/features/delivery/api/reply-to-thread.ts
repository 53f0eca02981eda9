import type { ReplyRequest } from '@flywheel/shared/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /quickaction/replytothread: a reply in the thread of the message `ts` in `channel_id`. */
export const useReplyToThread = () => useSendMutation<ReplyRequest>('/quickaction/replytothread');

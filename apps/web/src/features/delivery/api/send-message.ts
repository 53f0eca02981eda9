import { sendMessage } from '@flywheel/shared/endpoints/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /quickaction/sendmessage: channels (channel_ids) and DMs to members, tags, channels or a filter. */
export const useSendMessage = () => useSendMutation(sendMessage);

import { directMessage } from '@flywheel/shared/endpoints/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /member/directmessage: a DM to one member (member detail's message button). */
export const useDirectMessage = () => useSendMutation(directMessage);

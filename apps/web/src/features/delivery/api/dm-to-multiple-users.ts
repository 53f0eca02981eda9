import { dmToMultipleUsers } from '@flywheel/shared/endpoints/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /quickaction/dmtomultipleusers: a DM to each member id (or e-mail) in `users`. */
export const useDmToMultipleUsers = () => useSendMutation(dmToMultipleUsers);

import type { DmManyRequest } from '@flywheel/shared/delivery';
import { useSendMutation } from './send-mutation.ts';

/** POST /quickaction/dmtomultipleusers: a DM to each member id (or e-mail) in `users`. */
export const useDmToMultipleUsers = () => useSendMutation<DmManyRequest>('/quickaction/dmtomultipleusers');

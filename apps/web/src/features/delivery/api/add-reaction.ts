import { useMutation } from '@tanstack/react-query';
import type { ReactionRequest } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /quickaction/addreaction: the sender (bot by default) reacts with `name` (e.g. thumbsup). */
export const addReaction = (body: ReactionRequest) =>
  apiRequest<{ message: string }>('/quickaction/addreaction', { body });

export const useAddReaction = () => useMutation({ mutationFn: addReaction });

import { useMutation } from '@tanstack/react-query';
import type { ReactionRequest } from '@flywheel/shared/delivery';
import { addReaction as addReactionCall } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /quickaction/addreaction: the sender (bot by default) reacts with `name` (e.g. thumbsup). */
export const addReaction = (body: ReactionRequest) => callEndpoint(addReactionCall, { body });

export const useAddReaction = () => useMutation({ mutationFn: addReaction });

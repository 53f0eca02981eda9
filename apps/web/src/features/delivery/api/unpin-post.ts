import { useMutation } from '@tanstack/react-query';
import type { PinRequest } from '@flywheel/shared/delivery';
import { unpinPost as unpinPostCall } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /quickaction/unpinpost (unpin when the message is pinned). */
export const unpinPost = (body: PinRequest) => callEndpoint(unpinPostCall, { body });

export const useUnpinPost = () => useMutation({ mutationFn: unpinPost });

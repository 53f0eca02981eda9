import { useMutation } from '@tanstack/react-query';
import type { PinRequest } from '@flywheel/shared/delivery';
import { pinPost as pinPostCall } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /quickaction/pinpost (pin when the message is not pinned). */
export const pinPost = (body: PinRequest) => callEndpoint(pinPostCall, { body });

export const usePinPost = () => useMutation({ mutationFn: pinPost });

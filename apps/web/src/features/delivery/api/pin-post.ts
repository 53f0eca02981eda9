import { useMutation } from '@tanstack/react-query';
import type { PinRequest } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /quickaction/pinpost (pin when the message is not pinned). */
export const pinPost = (body: PinRequest) =>
  apiRequest<{ message: string }>('/quickaction/pinpost', { body });

export const usePinPost = () => useMutation({ mutationFn: pinPost });

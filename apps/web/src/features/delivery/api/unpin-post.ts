import { useMutation } from '@tanstack/react-query';
import type { PinRequest } from '@flywheel/shared/delivery';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /quickaction/unpinpost (unpin when the message is pinned). */
export const unpinPost = (body: PinRequest) =>
  apiRequest<{ message: string }>('/quickaction/unpinpost', { body });

export const useUnpinPost = () => useMutation({ mutationFn: unpinPost });

import { useActions } from './list-actions.ts';

/** GET /actions/getscheduled/:teamId: the Schedule table's messages. */
export const useScheduled = () => useActions('schedule');

import { useActions } from './list-actions.ts';

/** GET /actions/getautomations/:teamId: the Automate table's triggers. */
export const useAutomations = () => useActions('automation');

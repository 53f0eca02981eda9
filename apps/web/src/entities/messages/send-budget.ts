import { queryOptions, useQuery } from '@tanstack/react-query';
import { getSendBudget } from '@flywheel/shared/endpoints/delivery';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../workspace/index.ts';

export const sendBudgetKey = (teamId: string) => [...workspaceKey(teamId), 'send-budget'] as const;

/** GET /delivery/budget/:teamId: the workspace's daily message budget and what is left of it. */
export const sendBudgetQuery = (teamId: string) =>
  queryOptions({
    queryKey: sendBudgetKey(teamId),
    queryFn: ({ signal }) =>
      callEndpoint(getSendBudget, { params: { teamId } }, { signal }).then((r) => r.data),
    // Every send spends it: read again whenever a dialog that shows it opens.
    staleTime: 0,
  });

/** The budget for the send dialogs (nothing while the workspace is unknown). */
export function useSendBudget() {
  const { teamId } = useCurrentTeam();
  return useQuery({ ...sendBudgetQuery(teamId), enabled: teamId !== '' });
}

/** 'Daily budget: 1,214 of 1,479 messages left', or null without a budget (or before it is known). */
export function budgetLine(
  b: { limited: boolean; budget: number | null; remaining: number | null } | undefined,
) {
  if (!b?.limited || b.budget === null || b.remaining === null) return null;
  return `Daily budget: ${b.remaining.toLocaleString('en-US')} of ${b.budget.toLocaleString('en-US')} messages left`;
}

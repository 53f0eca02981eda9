import type { QueryClient } from '@tanstack/react-query';
import { DEFAULT_TIME } from '../../lib/time-filter.ts';
import { botQuery } from './api/bot-details.ts';
import { cardsQuery } from './api/get-cards-data.ts';
import { channelDataQuery } from './api/get-channel-data.ts';
import { topMembersQuery } from './api/get-most-active-members.ts';
import { tasksQuery } from './api/get-tasks.ts';
import { contentShareQuery } from './api/get-user-admin-data.ts';
import { highlightsQuery } from './api/workspace-highlights.ts';

/** Home's first data, as its cards first ask for it (each starts on DEFAULT_TIME): see app/warm-start.ts. */
export function prefetchHome(qc: QueryClient, teamId: string): Promise<void>[] {
  return [
    qc.prefetchQuery(cardsQuery(teamId)),
    qc.prefetchQuery(highlightsQuery(teamId, DEFAULT_TIME)),
    qc.prefetchQuery(contentShareQuery(teamId, DEFAULT_TIME)),
    qc.prefetchQuery(channelDataQuery(teamId, DEFAULT_TIME)),
    qc.prefetchQuery(topMembersQuery(teamId, DEFAULT_TIME)),
    // The bot's picture is fetched as soon as its address is known, not when the card first draws it.
    qc.prefetchQuery(botQuery(teamId)).then(() => {
      const image = qc.getQueryData(botQuery(teamId).queryKey)?.bot_image;
      if (image) new Image().src = image;
    }),
    qc.prefetchQuery(tasksQuery(teamId)),
  ];
}

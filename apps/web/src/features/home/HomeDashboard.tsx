import { Grid, Stack } from '@mantine/core';
import { BotCard } from './components/BotCard.tsx';
import {
  ChannelActivityCard,
  ContentGenerationCard,
  HighlightsCard,
  ReactionsMessagesCard,
  TopChannelsCard,
} from './components/HomeCharts.tsx';
import { SummaryCards } from './components/SummaryCards.tsx';
import { TaskBoard } from './components/TaskBoard.tsx';
import { TopMembersCard } from './components/TopMembersCard.tsx';

/** Everything below the Home header: charts, cards and tables (a lazy chunk of its own). */
export default function HomeDashboard() {
  return (
    <Stack gap="lg">
      <SummaryCards />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <HighlightsCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ContentGenerationCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <ChannelActivityCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <TopChannelsCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <TopMembersCard />
        </Grid.Col>
        {/* The bot card is short: the second chart sits under it, so no empty block opens beside the table. */}
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="lg">
            <BotCard />
            <ReactionsMessagesCard />
          </Stack>
        </Grid.Col>
        {/* Tasks are Flywheel's own addition: after every card of Home, across the page. */}
        <Grid.Col span={12}>
          <TaskBoard />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

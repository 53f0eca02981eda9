import '@mantine/charts/styles.css';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Grid, Stack } from '@mantine/core';
import { ActivityCard } from './components/ActivityCard.tsx';
import { ChannelActivityCard } from './components/ChannelActivityCard.tsx';
import { MembersActivityCard } from './components/MembersActivityCard.tsx';
import { StatCards } from './components/StatCards.tsx';
import { TrendsCard } from './components/TrendsCard.tsx';
import { UsersCard } from './components/UsersCard.tsx';
import { WordCloudCard } from './components/WordCloudCard.tsx';

/** Scrolls to the element of the URL's hash once it is on the page ('More Channels' links to #channel). */
function useHashScroll() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    let tries = 0;
    const timer = setInterval(() => {
      const el = document.getElementById(id);
      if (el || ++tries > 20) {
        clearInterval(timer);
        el?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
      }
    }, 100);
    return () => clearInterval(timer);
  }, [hash]);
}

/** Everything below the Analytics header, normal mode (a lazy chunk of its own). */
export default function AnalyticsDashboard() {
  useHashScroll();
  return (
    <>
      <Stack gap="lg">
        <StatCards />
        <ActivityCard />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <TrendsCard />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <WordCloudCard />
          </Grid.Col>
        </Grid>
        <UsersCard />
        <MembersActivityCard />
        <ChannelActivityCard />
      </Stack>
    </>
  );
}

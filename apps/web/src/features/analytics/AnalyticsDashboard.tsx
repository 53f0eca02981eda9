import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Grid, Stack } from '@mantine/core';
import { ActivityCard } from './components/ActivityCard.tsx';
import { BucketAnalyticsCard } from './components/BucketAnalyticsCard.tsx';
import { ChannelActivityCard } from './components/ChannelActivityCard.tsx';
import { MembersActivityCard } from './components/MembersActivityCard.tsx';
import { ResponseTimesCard } from './components/ResponseTimesCard.tsx';
import { StatCards } from './components/StatCards.tsx';
import { TrendsCard } from './components/TrendsCard.tsx';
import { UsersCard } from './components/UsersCard.tsx';
import { WordCloudCard } from './components/WordCloudCard.tsx';

/**
 * Scrolls to the element of the URL's hash ('More Channels' links to #channel). The cards above it load
 * their data after it appears and grow, so it is kept in place until the layout settles (about 4 s at most)
 * or the user scrolls.
 */
function useHashScroll() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    let lastTop: number | null = null;
    let stable = 0;
    let ticks = 0;
    const stop = () => {
      clearInterval(timer);
      window.removeEventListener('wheel', stop);
      window.removeEventListener('touchmove', stop);
      window.removeEventListener('keydown', stop);
    };
    const timer = setInterval(() => {
      ticks += 1;
      const el = document.getElementById(id);
      if (el) {
        const top = el.getBoundingClientRect().top;
        if (lastTop === null || Math.abs(top - lastTop) > 1 || Math.abs(top) > 80) {
          el.scrollIntoView?.({ block: 'start' });
          lastTop = el.getBoundingClientRect().top;
          stable = 0;
        } else stable += 1;
      }
      if (stable >= 5 || ticks > 40) stop();
    }, 100);
    window.addEventListener('wheel', stop, { passive: true });
    window.addEventListener('touchmove', stop, { passive: true });
    window.addEventListener('keydown', stop);
    return stop;
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
        <ResponseTimesCard />
        <BucketAnalyticsCard />
      </Stack>
    </>
  );
}

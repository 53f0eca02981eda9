import { Suspense, useEffect, useState } from 'react';
import { Anchor, Center, Grid, Group, Loader, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { notifyFailure } from '../../lib/notify.tsx';
import { useMemberInfo } from './api/member-info.ts';
import { MemberActions } from './components/MemberActions.tsx';
import { MemberProfile } from './components/MemberProfile.tsx';
import type { MemberDetailSlots } from './slots.ts';
import { preloadable } from '../../lib/preloadable.tsx';

const MemberAnalytics = preloadable(() => import('./components/MemberAnalytics.tsx').then((m) => m.default));

const loader = (
  <Center py="xl">
    <Loader role="status" aria-label="Loading" />
  </Center>
);

/** /dashboard/members/{memberID}: /404 when the id is not a member of the current workspace. */
export function MemberDetailPage({ MessageMember, MessageActions, MemberReplies }: MemberDetailSlots = {}) {
  const memberId = useParams().memberId ?? '';
  const location = useLocation();
  const info = useMemberInfo(memberId);
  const [tab, setTab] = useState<string | null>('analytics');
  const notMember = isApiError(info.error) && (info.error.status === 404 || info.error.status === 400);

  useEffect(() => {
    if (info.error && !notMember) notifyFailure(errorMessage(info.error));
  }, [info.error, notMember]);

  // A URL hash scrolls to the tags section (the table's More link uses #tags).
  useEffect(() => {
    if (info.data && location.hash === '#tags')
      document.getElementById('tags')?.scrollIntoView({ block: 'center' });
  }, [info.data, location.hash]);

  if (notMember) return <Navigate to="/404" replace />;

  return (
    <>
      <Anchor component={Link} to="/dashboard/members" fz="sm" mb="sm" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Members
        </Group>
      </Anchor>
      {info.data ? (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <MemberProfile member={info.data} MessageMember={MessageMember} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Tabs value={tab} onChange={setTab} keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="analytics">Analytics</Tabs.Tab>
                <Tabs.Tab value="actions">Actions</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="analytics">
                <Suspense fallback={loader}>
                  <MemberAnalytics memberId={memberId} />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="actions">
                <MemberActions memberId={memberId} MessageActions={MessageActions} />
                {MemberReplies ? <MemberReplies memberId={memberId} /> : null}
              </Tabs.Panel>
            </Tabs>
          </Grid.Col>
        </Grid>
      ) : info.error ? (
        <Text c="red">{errorMessage(info.error)}</Text>
      ) : (
        <>
          <Title order={1} fz={26}>
            Member
          </Title>
          {loader}
        </>
      )}
    </>
  );
}

import { Anchor, Group } from '@mantine/core';
import { IconArrowLeft, IconUser } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';

export function MemberDetailPage() {
  const { memberId } = useParams();
  return (
    <>
      <Anchor component={Link} to="/dashboard/members" fz="sm" mb="sm" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Members
        </Group>
      </Anchor>
      <PageHeader title="Member" description={memberId ? `Member ${memberId}` : undefined} />
      <PlaceholderCard
        icon={<IconUser size={26} />}
        title="Member profile"
        description="One member's story: profile, tags, channels and what they have been up to."
        upcoming={[
          'Profile with tags and channels',
          'Activity charts per channel',
          'Recent actions with reply',
        ]}
      />
    </>
  );
}

import { SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** Placeholder while a page's charts chunk loads. */
export function PageSkeleton() {
  return (
    <Stack gap="lg" aria-label="Loading" role="status">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h={92} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={320} radius="md" />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton h={260} radius="md" />
        <Skeleton h={260} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

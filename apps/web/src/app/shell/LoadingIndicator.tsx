import { Box, Loader, Tooltip } from '@mantine/core';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useNavigation } from 'react-router';

/** Spins while TanStack Query fetches or a page chunk loads; keeps its space so nothing jumps. */
export function LoadingIndicator() {
  const fetching = useIsFetching({ predicate: (q) => q.meta?.background !== true });
  const mutating = useIsMutating();
  const navigation = useNavigation();
  const busy = fetching + mutating > 0 || navigation.state !== 'idle';
  return (
    <Box w={24} h={24} style={{ display: 'grid', placeItems: 'center' }}>
      {busy ? (
        <Tooltip label="Loading…" withArrow>
          <Loader size={18} type="oval" aria-label="Loading" role="progressbar" />
        </Tooltip>
      ) : null}
    </Box>
  );
}

import { useMemo, useState } from 'react';
import { Box } from '@mantine/core';
import { LazyTooltip } from '../../../components/LazyTooltip.tsx';
import type { WordCloudItem } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useWordCloud } from '../api/word-cloud.ts';
import { centreOut, layoutWords, TRANSITION } from '../word-cloud.ts';

/** A failed word cloud says 'Cannot load wordcloud data!'. */
export const WORDCLOUD_FAILURE = 'Cannot load wordcloud data!';

/** The words, sized by weight, horizontal, heaviest in the middle. */
export function WordCloud({ items }: { items: readonly WordCloudItem[] }) {
  const words = useMemo(() => centreOut(layoutWords(items)), [items]);
  return (
    <Box
      role="list"
      aria-label="Word cloud"
      style={{
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        alignItems: 'center',
        alignContent: 'center',
        gap: '4px 14px',
        minHeight: 280,
        padding: '8px 12px',
      }}
    >
      {words.map((w) => (
        <LazyTooltip key={w.text} label={`${w.text}: ${w.weight}%`} withArrow>
          <span
            role="listitem"
            data-weight={w.weight}
            style={{
              fontSize: w.size,
              color: w.color,
              fontWeight: w.size > 36 ? 700 : 600,
              lineHeight: 1.1,
              transform: 'none',
              transition: TRANSITION,
              whiteSpace: 'nowrap',
            }}
          >
            {w.text}
          </span>
        </LazyTooltip>
      ))}
    </Box>
  );
}

export function WordCloudCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useWordCloud(time);
  useErrorToast(q, WORDCLOUD_FAILURE);
  return (
    <ChartCard
      title="Word Cloud"
      subtitle="What people talk about most"
      actions={<TimeFilterSelect label="Word cloud time filter" value={time} onChange={setTime} />}
      state={queryState(
        q,
        (d) => d.length === 0,
        () => WORDCLOUD_FAILURE,
      )}
      minHeight={280}
    >
      <WordCloud items={(q.data ?? []).slice(0, 60)} />
    </ChartCard>
  );
}

import { useMemo, useState } from 'react';
import { BarChart } from '../../../components/charts/index.ts';
import { Box, Select } from '@mantine/core';
import { DEFAULT_TREND_SLOT_HOURS, TREND_SLOTS_HOURS } from '@flywheel/shared/constants';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useTrend } from '../api/get-activity-trend.ts';

/** Activity Trends: activity per slot of the day (2, 3, 4, 6, 8 or 12 hours; default 2). */
export function TrendsCard() {
  const [slot, setSlot] = useState<number>(DEFAULT_TREND_SLOT_HOURS);
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const q = useTrend(time, slot);
  useErrorToast(q);
  const bars = useMemo(
    () =>
      Object.entries(q.data ?? {})
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([slotName, activity]) => ({ slot: slotName, activity })),
    [q.data],
  );
  return (
    <ChartCard
      title="Activity Trends"
      subtitle="When your community is active (workspace time)"
      actions={
        <>
          <Select
            aria-label="Slot"
            data={TREND_SLOTS_HOURS.map((h) => ({ value: String(h), label: `${h} hrs` }))}
            value={String(slot)}
            onChange={(v) => v && setSlot(Number(v))}
            allowDeselect={false}
            w={100}
          />
          <TimeFilterSelect label="Activity Trends time filter" value={time} onChange={setTime} />
        </>
      }
      state={queryState(q, (d) => Object.values(d).every((n) => n === 0), errorMessage)}
      minHeight={280}
    >
      <Box data-testid="trends-chart">
        <BarChart
          h={280}
          data={bars}
          dataKey="slot"
          series={[{ name: 'activity', label: 'Activity', color: 'indigo.6' }]}
          gridAxis="y"
          barProps={{ radius: [4, 4, 0, 0] }}
          maxBarWidth={48}
        />
      </Box>
    </ChartCard>
  );
}

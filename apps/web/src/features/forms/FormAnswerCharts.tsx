import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FormResponses } from '@flywheel/shared/forms';
import { BarChart } from '../../components/charts/index.ts';
import { summarize, type AnswerSummary } from './answer-summary.ts';

const SERIES = [{ name: 'count', label: 'Members', color: 'indigo.6' }];

function SummaryCard({ s, index }: { s: AnswerSummary; index: number }) {
  const data =
    s.kind === 'choice'
      ? s.counts.map((c) => ({ label: c.option, count: c.count }))
      : s.bins.map((b) => ({ label: b.range, count: b.count }));
  const facts =
    s.kind === 'choice'
      ? [
          `${s.answered} answer${s.answered === 1 ? '' : 's'}`,
          ...(s.average !== null ? [`average ${s.average} of 5`] : []),
          ...(s.type === 'checkboxes' ? ['several answers each'] : []),
        ]
      : [
          `${s.answered} answer${s.answered === 1 ? '' : 's'}`,
          ...(s.answered > 0
            ? [`min ${s.min}`, `median ${s.median}`, `max ${s.max}`, `average ${s.average}`]
            : []),
        ];
  return (
    <Card withBorder radius="md" padding="md" data-summary={index}>
      <Stack gap={6}>
        <Title order={3} fz="sm">
          {s.question}
        </Title>
        <Text fz="xs" c="dimmed" data-testid={`summary-facts-${index}`}>
          {facts.join(' · ')}
        </Text>
        {data.length > 0 ? (
          <BarChart
            h={180}
            data={data}
            dataKey="label"
            series={SERIES}
            gridAxis="y"
            barProps={{ radius: 2 }}
            maxBarWidth={40}
            yAxisProps={{ allowDecimals: false }}
            xAxisProps={{ interval: 0 }}
            aria-label={`${s.question}: ${data.map((d) => `${d.label} ${d.count}`).join(', ')}`}
          />
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * The charts of an instance's answers: bars per option for multiple choice, checkboxes, rating (with the
 * average) and yes/no, and for a number question its min, median and max with bars over its values.
 */
export function FormAnswerCharts({ data }: { data: FormResponses }) {
  const summaries = summarize(data.question_details, data.rows);
  if (summaries.length === 0 || data.rows.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-label="Answer charts" component="section">
      {summaries.map((s, i) => (
        <SummaryCard key={`${i}-${s.question}`} s={s} index={i} />
      ))}
    </SimpleGrid>
  );
}

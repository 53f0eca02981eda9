import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SummaryCard } from '@flywheel/shared/analytics';
import { renderUi } from '../testing/render.tsx';
import { changeOf, StatCard } from './StatCard.tsx';

const card = (over: Partial<SummaryCard>): SummaryCard => ({
  name: 'Messages',
  val: 30_363,
  percent: 12.5,
  sign: '+',
  comparison: 'change',
  ...over,
});

describe('StatCard: the change against the period before', () => {
  it('a rise is green and up, a fall red and down', () => {
    expect(changeOf(card({}))).toEqual({ text: '+12.5%', tone: 'up' });
    expect(changeOf(card({ sign: '-', percent: 40 }))).toEqual({ text: '-40%', tone: 'down' });
    expect(changeOf(card({ comparison: undefined }))).toEqual({ text: '+12.5%', tone: 'up' });
  });

  it('no change is neutral: 0% with no sign and no green arrow', () => {
    expect(changeOf(card({ percent: 0 }))).toEqual({ text: '0%', tone: 'flat' });
    renderUi(<StatCard card={card({ percent: 0 })} caption="vs prior 7d" />);
    const change = screen.getByText('0%').parentElement!;
    expect(change).toHaveAttribute('data-tone', 'flat');
  });

  it("says 'new' when the period before had nothing, never +100%", () => {
    expect(changeOf(card({ comparison: 'new', percent: 100 }))).toMatchObject({ text: 'new', tone: 'new' });
  });

  it("says 'history incomplete' instead of +30,263% when the period before is not all in the history", () => {
    renderUi(
      <StatCard
        card={card({ comparison: 'incomplete', percent: 30_263, history_start: '2026-07-24' })}
        caption="vs prior 365d"
      />,
    );
    expect(screen.queryByText(/30,263/)).toBeNull();
    expect(screen.getByText('history incomplete')).toBeInTheDocument();
    expect(
      screen.getByLabelText(
        "history incomplete: Flywheel's history of this workspace starts on 24 Jul 2026: the period before is not all in it, so no percent is shown.",
      ),
    ).toBeInTheDocument();
    // The caption is whole (it used to be cut to 'vs prio…').
    expect(screen.getByText('vs prior 365d')).not.toHaveStyle({ textOverflow: 'ellipsis' });
    expect(changeOf(card({ comparison: 'incomplete', history_start: null })).why).toMatch(/no history/);
  });
});

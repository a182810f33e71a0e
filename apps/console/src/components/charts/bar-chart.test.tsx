import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render';
import { BarChart } from './bar-chart';

const SERIES = [
  { key: 'yes', label: 'Yes', color: 'teal' },
  { key: 'no', label: 'No', color: 'red' },
];

describe('BarChart', () => {
  it('stacks a segment per non-zero value, scaled to the tallest bar, with a legend and a table', () => {
    renderRoute(
      <BarChart
        title="Answers"
        series={SERIES}
        data={[
          { label: 'Mon', values: { yes: 2, no: 2 } },
          { label: 'Tue', values: { yes: 0, no: 0 } },
          { label: 'Wed', values: { yes: 1, no: 0 } },
        ]}
        formatLabel={(label) => `Day ${label}`}
      />,
    );
    const chart = screen.getByRole('img', { name: 'Answers: 5 in 3 days; most on Day Mon (4).' });
    const rects = [...chart.querySelectorAll('rect')];
    expect(rects.map((rect) => rect.getAttribute('data-series'))).toEqual(['yes', 'no', 'yes']);
    // The tallest bar (4) fills the plot; 2 is half of it, 1 a quarter.
    expect(rects.map((rect) => Number(rect.getAttribute('height')))).toEqual([50, 50, 25]);
    expect(rects[0]?.querySelector('title')?.textContent).toBe('Day Mon · Yes: 2');
    expect(screen.getByText('Yes: 3')).toBeInTheDocument();
    expect(screen.getByText('No: 2')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Answers' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['DayYesNo', 'Day Mon22', 'Day Tue00', 'Day Wed10']);
  });

  it('says so when every value is zero, and draws no bar', () => {
    renderRoute(
      <BarChart
        title="Answers"
        series={SERIES}
        data={[
          { label: 'Mon', values: { yes: 0, no: 0 } },
          { label: 'Tue', values: {} },
        ]}
      />,
    );
    const chart = screen.getByRole('img', { name: 'Answers: none in these 2 days.' });
    expect(chart.querySelectorAll('rect')).toHaveLength(0);
  });
});

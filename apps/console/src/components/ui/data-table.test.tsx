import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../test/render';
import { DataTable, type DataTableColumn, type DataTableServerState } from './data-table';
import { compareSortValues, filterRows, pageRows, rangeText, sortRows } from './data-table-model';
import { defined } from '../../test/defined';

interface Org {
  id: string;
  name: string;
  city: string | null;
  users: number;
}

const columns: DataTableColumn<Org>[] = [
  { id: 'name', header: 'Name', render: (row) => row.name, sortValue: (row) => row.name },
  { id: 'city', header: 'City', render: (row) => row.city ?? '—', sortValue: (row) => row.city },
  {
    id: 'users',
    header: 'Users',
    render: (row) => row.users,
    sortValue: (row) => row.users,
    searchable: false,
  },
];

const orgs: Org[] = Array.from({ length: 23 }, (_, index) => ({
  id: `t${index + 1}`,
  name: `Org ${index + 1}`,
  city: index % 2 === 0 ? 'Lisbon' : 'Oslo',
  users: (index * 7) % 10,
}));

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Organisations' }))
    .getAllByRole('row')
    .slice(1);
const firstCells = () => bodyRows().map((row) => defined(within(row).getAllByRole('cell')[0]).textContent);

function renderTable(props: Partial<Parameters<typeof DataTable<Org>>[0]> = {}) {
  return renderRoute(
    <DataTable
      label="Organisations"
      columns={columns}
      data={orgs}
      rowKey={(row) => row.id}
      emptyState={<p>No organisations yet. Create the first one.</p>}
      {...props}
    />,
  );
}

describe('DataTable (client side)', () => {
  it('pages 10 rows at a time and moves between pages', async () => {
    renderTable();
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(firstCells()[0]).toBe('Org 11');
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    expect(bodyRows()).toHaveLength(3);
    expect(screen.getByText('21–23 of 23')).toBeInTheDocument();
  });

  it('changes the page size and goes back to the first page', async () => {
    renderTable();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await userEvent.click(await screen.findByRole('option', { name: '25 / page' }));
    expect(bodyRows()).toHaveLength(23);
    expect(screen.getByText('1–23 of 23')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
  });

  it('sorts by a header, ascending then descending, and marks it with aria-sort', async () => {
    renderTable();
    const usersHeader = screen.getByRole('columnheader', { name: /Users/ });
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Users' }));
    expect(usersHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(
      bodyRows()
        .map((row) => defined(within(row).getAllByRole('cell')[2]).textContent)
        .slice(0, 3),
    ).toEqual(['0', '0', '0']);
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Users' }));
    expect(usersHeader).toHaveAttribute('aria-sort', 'descending');
    expect(defined(within(defined(bodyRows()[0])).getAllByRole('cell')[2]).textContent).toBe('9');
    // Names compare as people read them: Org 2 before Org 10.
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Name' }));
    expect(firstCells().slice(0, 3)).toEqual(['Org 1', 'Org 2', 'Org 3']);
    expect(usersHeader).not.toHaveAttribute('aria-sort');
  });

  it('searches every column (all words must match) and offers to clear a search without results', async () => {
    renderTable();
    const search = screen.getByRole('textbox', { name: 'Search organisations' });
    await userEvent.type(search, 'oslo 1');
    // Oslo rows are the even-numbered orgs; "1" narrows to Org 10, 12, 14, 16, 18.
    expect(firstCells()).toEqual(['Org 10', 'Org 12', 'Org 14', 'Org 16', 'Org 18']);
    await userEvent.clear(search);
    await userEvent.type(search, 'nowhere');
    expect(screen.getByText('No results for “nowhere”')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(bodyRows()).toHaveLength(10);
  });

  it('shows skeleton rows while loading and the empty state when there is nothing', () => {
    const { unmount } = renderTable({ data: undefined, isLoading: true });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    unmount();
    renderTable({ data: [] });
    expect(screen.getByText('No organisations yet. Create the first one.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Search organisations' })).not.toBeInTheDocument();
  });
});

describe('DataTable (server side)', () => {
  const serverState = (overrides: Partial<DataTableServerState> = {}): DataTableServerState => ({
    total: 45,
    page: 2,
    pageSize: 10,
    search: '',
    sort: { column: 'name', direction: 'asc' },
    onPageChange: vi.fn(),
    onPageSizeChange: vi.fn(),
    onSearchChange: vi.fn(),
    onSortChange: vi.fn(),
    ...overrides,
  });

  it('shows the page it is given and reports page, size, sort and (debounced) search changes', async () => {
    const server = serverState();
    renderTable({ data: orgs.slice(10, 20), server });
    expect(bodyRows()).toHaveLength(10);
    expect(firstCells()[0]).toBe('Org 11');
    expect(screen.getByText('11–20 of 45')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(server.onPageChange).toHaveBeenCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Sort by Name' }));
    expect(server.onSortChange).toHaveBeenCalledWith({ column: 'name', direction: 'desc' });
    await userEvent.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await userEvent.click(await screen.findByRole('option', { name: '50 / page' }));
    expect(server.onPageSizeChange).toHaveBeenCalledWith(50);

    // Two quick changes (one event each, so timing does not depend on the machine's load): one report.
    const search = screen.getByRole('textbox', { name: 'Search organisations' });
    fireEvent.change(search, { target: { value: 'ad' } });
    fireEvent.change(search, { target: { value: 'ada ' } });
    expect(server.onSearchChange).not.toHaveBeenCalled();
    await waitFor(() => expect(server.onSearchChange).toHaveBeenCalledTimes(1));
    expect(server.onSearchChange).toHaveBeenCalledWith('ada');
  });
});

describe('data table model', () => {
  it('compares numbers, text (numeric aware) and dates, empty values last', () => {
    expect(compareSortValues(2, 10)).toBeLessThan(0);
    expect(compareSortValues('Org 2', 'Org 10')).toBeLessThan(0);
    expect(compareSortValues(new Date(1), new Date(2))).toBeLessThan(0);
    expect(compareSortValues(null, 'a')).toBeGreaterThan(0);
    const sorted = sortRows(
      [
        { id: 'a', name: 'B', city: null, users: 1 },
        { id: 'b', name: 'A', city: 'Oslo', users: 2 },
      ],
      columns,
      { column: 'city', direction: 'desc' },
    );
    expect(sorted.map((row) => row.id)).toEqual(['b', 'a']);
  });

  it('filters, pages and describes the range', () => {
    expect(filterRows(orgs, columns, '  ')).toHaveLength(23);
    expect(filterRows(orgs, columns, 'ORG 2').map((row) => row.name)).toEqual([
      'Org 2',
      'Org 12',
      'Org 20',
      'Org 21',
      'Org 22',
      'Org 23',
    ]);
    expect(pageRows(orgs, 99, 10).map((row) => row.id)).toEqual(['t21', 't22', 't23']);
    expect(rangeText(1, 10, 0)).toBe('0 of 0');
    expect(rangeText(3, 10, 23)).toBe('21–23 of 23');
  });
});

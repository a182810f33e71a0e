import {
  ActionIcon,
  Button,
  Card,
  Center,
  CloseButton,
  Group,
  Pagination,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import {
  IconArrowsSort,
  IconChevronDown,
  IconChevronUp,
  IconSearch,
  IconSortAscending,
  IconSortDescending,
} from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import {
  DEFAULT_PAGE_SIZES,
  filterRows,
  nextSort,
  pageCount,
  pageRows,
  rangeText,
  sortRows,
  type DataTableColumn,
  type DataTableSort,
} from './data-table-model';

export type { DataTableColumn, DataTableSort } from './data-table-model';

const SKELETON_ROWS = 5;
const SEARCH_DEBOUNCE_MS = 300;
/** Below Mantine's `sm` breakpoint (48em = 768 px, our mobile breakpoint) rows become cards. */
const MOBILE_QUERY = '(max-width: 48em)';

/** Paging, sorting and search done by the server: the table shows `data` as one page and reports changes. */
export interface DataTableServerState {
  total: number;
  page: number;
  pageSize: number;
  search: string;
  sort: DataTableSort | null;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** Called after typing pauses (300 ms). */
  onSearchChange: (search: string) => void;
  onSortChange: (sort: DataTableSort) => void;
}

interface DataTableProps<T> {
  /** Names the table for assistive technology, e.g. "Client organisations". */
  label: string;
  columns: readonly DataTableColumn<T>[];
  /** Undefined while loading. */
  data: readonly T[] | undefined;
  rowKey: (row: T) => string;
  isLoading?: boolean;
  /** Shown when there are no rows at all: say what to do next. */
  emptyState: ReactNode;
  searchPlaceholder?: string;
  initialSort?: DataTableSort;
  initialPageSize?: number;
  pageSizes?: number[];
  /** Extra controls beside the search box (filters). */
  toolbar?: ReactNode;
  /** At 375 px: cards (default) or a horizontally scrolling table. */
  mobileLayout?: 'cards' | 'scroll';
  /** Width below which the table scrolls sideways instead of squeezing. */
  minWidth?: number;
  /** Server-side paging, sorting and search (the users list); client-side when left out. */
  server?: DataTableServerState;
}

function SortIcon({ direction }: { direction: 'asc' | 'desc' | null }) {
  if (direction === 'asc') return <IconChevronUp size={14} aria-hidden="true" />;
  if (direction === 'desc') return <IconChevronDown size={14} aria-hidden="true" />;
  return <IconArrowsSort size={14} aria-hidden="true" opacity={0.5} />;
}

const ariaSort = (direction: 'asc' | 'desc' | null) =>
  direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined;

/**
 * The console's table: a search box, sortable headers, paging with a page size choice, a skeleton while
 * loading and an empty state. Client-side by default; `server` hands paging, sorting and search to the caller.
 */
export function DataTable<T>({
  label,
  columns,
  data,
  rowKey,
  isLoading = false,
  emptyState,
  searchPlaceholder = 'Search',
  initialSort,
  initialPageSize = DEFAULT_PAGE_SIZES[0],
  pageSizes = DEFAULT_PAGE_SIZES,
  toolbar,
  mobileLayout = 'cards',
  minWidth = 640,
  server,
}: DataTableProps<T>) {
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [localSearch, setLocalSearch] = useState(server?.search ?? '');
  const [localSort, setLocalSort] = useState<DataTableSort | null>(initialSort ?? null);
  const [localPage, setLocalPage] = useState(1);
  const [localPageSize, setLocalPageSize] = useState(initialPageSize ?? 10);
  // Server mode: one request once typing pauses, not one per key.
  const reportSearch = useDebouncedCallback(
    (value: string) => server?.onSearchChange(value),
    SEARCH_DEBOUNCE_MS,
  );

  const sort = server ? server.sort : localSort;
  const pageSize = server ? server.pageSize : localPageSize;

  const clientView = useMemo(() => {
    if (server || !data) return null;
    const filtered = filterRows(data, columns, localSearch);
    const sorted = sortRows(filtered, columns, localSort);
    return { total: sorted.length, rows: sorted };
  }, [server, data, columns, localSearch, localSort]);

  const total = server ? server.total : (clientView?.total ?? 0);
  const pages = pageCount(total, pageSize);
  const page = Math.min(server ? server.page : localPage, pages);
  const rows = server ? (data ?? []) : pageRows(clientView?.rows ?? [], page, pageSize);
  const searchText = server ? localSearch.trim() || server.search : localSearch.trim();
  const hasNoRowsAtAll = !isLoading && total === 0 && searchText === '';
  const hasNoMatches = !isLoading && total === 0 && searchText !== '';

  const setSort = (next: DataTableSort) => {
    if (server) server.onSortChange(next);
    else {
      setLocalSort(next);
      setLocalPage(1);
    }
  };
  const setPage = (next: number) => (server ? server.onPageChange(next) : setLocalPage(next));
  const setPageSize = (next: number) => {
    if (server) server.onPageSizeChange(next);
    else {
      setLocalPageSize(next);
      setLocalPage(1);
    }
  };
  const setSearch = (next: string) => {
    setLocalSearch(next);
    if (server) reportSearch(next.trim());
    else setLocalPage(1);
  };

  const directionOf = (column: DataTableColumn<T>) => (sort?.column === column.id ? sort.direction : null);
  const sortable = columns.filter((column) => column.sortValue);

  const search = (
    <TextInput
      aria-label={`Search ${label.toLowerCase()}`}
      placeholder={searchPlaceholder}
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      value={localSearch}
      onChange={(event) => setSearch(event.currentTarget.value)}
      rightSection={
        localSearch ? (
          <CloseButton size="sm" aria-label="Empty the search box" onClick={() => setSearch('')} />
        ) : null
      }
      style={{ flex: '1 1 16rem', maxWidth: '28rem' }}
    />
  );

  const mobileSort =
    isMobile && mobileLayout === 'cards' && sortable.length > 0 ? (
      <Group gap="xs" wrap="nowrap" style={{ flex: '1 1 12rem' }}>
        <Select
          aria-label="Sort by"
          placeholder="Sort by"
          data={sortable.map((column) => ({ value: column.id, label: column.header }))}
          value={sort?.column ?? null}
          onChange={(value) => value && setSort({ column: value, direction: sort?.direction ?? 'asc' })}
          allowDeselect={false}
          style={{ flex: 1 }}
        />
        <ActionIcon
          variant="default"
          size="input-sm"
          aria-label={sort?.direction === 'desc' ? 'Sort ascending' : 'Sort descending'}
          disabled={!sort}
          onClick={() => sort && setSort(nextSort(sort, sort.column))}
        >
          {sort?.direction === 'desc' ? <IconSortDescending size={18} /> : <IconSortAscending size={18} />}
        </ActionIcon>
      </Group>
    ) : null;

  const noMatches = (
    <Stack align="center" gap="xs" py="xl">
      <Text fw={500}>No results for “{searchText}”</Text>
      <Text size="sm" c="dimmed">
        Check the spelling or search for something else.
      </Text>
      <Button variant="light" size="xs" onClick={() => setSearch('')}>
        Clear search
      </Button>
    </Stack>
  );

  let body: ReactNode;
  if (hasNoRowsAtAll) body = <Center py="lg">{emptyState}</Center>;
  else if (hasNoMatches) body = noMatches;
  else if (isMobile && mobileLayout === 'cards') {
    const [first, ...rest] = columns;
    body = (
      <Stack gap="sm" role="list" aria-label={label} aria-busy={isLoading || undefined}>
        {isLoading
          ? Array.from({ length: 3 }, (_, index) => (
              <Card key={index} withBorder padding="md" role="listitem">
                <Skeleton height={14} width="60%" mb="sm" />
                <Skeleton height={10} mb={6} />
                <Skeleton height={10} width="80%" />
              </Card>
            ))
          : rows.map((row) => (
              <Card key={rowKey(row)} withBorder padding="md" role="listitem">
                {first && <div>{first.render(row)}</div>}
                <Stack gap={6} mt={rest.length > 0 ? 'sm' : 0}>
                  {rest.map((column) => (
                    <Group key={column.id} justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                        {column.header}
                      </Text>
                      <div style={{ textAlign: 'right', minWidth: 0, overflowWrap: 'anywhere' }}>
                        {column.render(row)}
                      </div>
                    </Group>
                  ))}
                </Stack>
              </Card>
            ))}
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table
          striped
          highlightOnHover
          verticalSpacing="sm"
          aria-label={label}
          aria-busy={isLoading || undefined}
        >
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const direction = directionOf(column);
                return (
                  <Table.Th
                    key={column.id}
                    aria-sort={ariaSort(direction)}
                    style={{ textAlign: column.align, whiteSpace: 'nowrap' }}
                  >
                    {column.sortValue ? (
                      <UnstyledButton
                        onClick={() => setSort(nextSort(sort, column.id))}
                        fw={600}
                        fz="sm"
                        display="inline-flex"
                        aria-label={`Sort by ${column.header}`}
                      >
                        <Group gap={4} wrap="nowrap" component="span">
                          {column.header}
                          <SortIcon direction={direction} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {isLoading
              ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
                  <Table.Tr key={index} data-testid="skeleton-row">
                    {columns.map((column) => (
                      <Table.Td key={column.id}>
                        <Skeleton height={12} radius="sm" width={`${60 + ((index * 7) % 30)}%`} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows.map((row) => (
                  <Table.Tr key={rowKey(row)}>
                    {columns.map((column) => (
                      <Table.Td
                        key={column.id}
                        style={{ textAlign: column.align, whiteSpace: column.nowrap ? 'nowrap' : undefined }}
                      >
                        {column.align === 'center' || column.align === 'right' ? (
                          // Block content (a checkbox, a badge) follows the column's alignment too.
                          <Group justify={column.align === 'center' ? 'center' : 'flex-end'} wrap="nowrap">
                            {column.render(row)}
                          </Group>
                        ) : (
                          column.render(row)
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const showFooter = !isLoading && total > 0;
  return (
    <Stack gap="md">
      {!hasNoRowsAtAll && (
        <Group gap="sm" wrap="wrap">
          {search}
          {mobileSort}
          {toolbar}
        </Group>
      )}
      {body}
      {showFooter && (
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" aria-live="polite">
              {rangeText(page, pageSize, total)}
            </Text>
            {total > Math.min(...pageSizes) && (
              <Select
                aria-label="Rows per page"
                data={pageSizes.map((size) => ({ value: String(size), label: `${size} / page` }))}
                value={String(pageSize)}
                onChange={(value) => value && setPageSize(Number(value))}
                allowDeselect={false}
                w={120}
                size="xs"
              />
            )}
          </Group>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              size="sm"
              siblings={isMobile ? 0 : 1}
              getControlProps={(control) =>
                control === 'previous'
                  ? { 'aria-label': 'Previous page' }
                  : control === 'next'
                    ? { 'aria-label': 'Next page' }
                    : {}
              }
            />
          )}
        </Group>
      )}
    </Stack>
  );
}

import type { ReactNode } from 'react';

export const DEFAULT_PAGE_SIZES = [10, 25, 50, 100];

export type SortValue = string | number | boolean | Date | null | undefined;

export interface DataTableColumn<T> {
  id: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The value the column sorts by; a column without one cannot be sorted. */
  sortValue?: (row: T) => SortValue;
  /** The text the search box looks in (default: the sort value when it is text or a number). */
  searchValue?: (row: T) => string | null | undefined;
  align?: 'left' | 'center' | 'right';
  /** Left out of the search. */
  searchable?: boolean;
  /** Keeps the cell on one line (badges, dates); the table scrolls sideways instead. */
  nowrap?: boolean;
}

export type SortDirection = 'asc' | 'desc';

export interface DataTableSort {
  column: string;
  direction: SortDirection;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const normalise = (value: SortValue): string | number | null => {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
};

/** Ascending order of two sort values; empty values sort last whatever the direction. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  const left = normalise(a);
  const right = normalise(b);
  if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return collator.compare(String(left), String(right));
}

function searchTextOf<T>(column: DataTableColumn<T>, row: T): string {
  if (column.searchable === false) return '';
  if (column.searchValue) return column.searchValue(row) ?? '';
  const value = column.sortValue?.(row);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** Rows in which every word of `query` appears (case-insensitively) in some column's search text. */
export function filterRows<T>(
  rows: readonly T[],
  columns: readonly DataTableColumn<T>[],
  query: string,
): T[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const haystack = columns
      .map((column) => searchTextOf(column, row))
      .join('\n')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** A sorted copy (stable); an unknown or unsortable column leaves the order as it is. */
export function sortRows<T>(
  rows: readonly T[],
  columns: readonly DataTableColumn<T>[],
  sort: DataTableSort | null,
): T[] {
  const column = sort && columns.find((candidate) => candidate.id === sort.column);
  const sortValue = column?.sortValue;
  if (!sort || !sortValue) return [...rows];
  const factor = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = sortValue(a);
    const right = sortValue(b);
    // Empty values stay last in both directions.
    if (normalise(left) === null || normalise(right) === null) return compareSortValues(left, right);
    return factor * compareSortValues(left, right);
  });
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** The rows of page `page` (1-based), the page clamped into range. */
export function pageRows<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const last = pageCount(rows.length, pageSize);
  const current = Math.min(Math.max(1, page), last);
  return rows.slice((current - 1) * pageSize, current * pageSize);
}

/** The next sort after a click on `column`'s header: ascending first, then it flips. */
export function nextSort(current: DataTableSort | null, column: string): DataTableSort {
  if (current?.column === column) {
    return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  }
  return { column, direction: 'asc' };
}

/** "11–20 of 42" */
export function rangeText(page: number, pageSize: number, total: number): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return `${first}–${last} of ${total}`;
}

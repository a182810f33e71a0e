import { USER_SORT_FIELDS, UserListQuerySchema, type UserListQuery } from '@omnibot/contracts';

export const USER_PAGE_SIZES = [10, 20, 50, 100];

/** The list's state as it lives in the address bar (?page=&page_size=&q=&sort=&order=). */
export function listQueryFrom(params: URLSearchParams): UserListQuery {
  const raw = Object.fromEntries(
    ['page', 'page_size', 'q', 'sort', 'order'].flatMap((key) => {
      const value = params.get(key);
      return value ? [[key, value]] : [];
    }),
  );
  const parsed = UserListQuerySchema.safeParse(raw);
  return parsed.success ? parsed.data : UserListQuerySchema.parse({});
}

export const isSortField = (value: string): value is UserListQuery['sort'] =>
  (USER_SORT_FIELDS as readonly string[]).includes(value);

/** The console addresses of the business-hours pages. */
export const schedulePaths = {
  list: '/schedule',
  add: '/schedule/add',
  view: (id: string) => `/schedule/view?${new URLSearchParams({ id }).toString()}`,
  /** The month view of a schedule (the first one when none is named), this month when no month is given. */
  calendar: (id?: string, month?: string) => {
    const query = new URLSearchParams();
    if (id) query.set('id', id);
    if (month) query.set('month', month);
    const text = query.toString();
    return text === '' ? '/calendar' : `/calendar?${text}`;
  },
};

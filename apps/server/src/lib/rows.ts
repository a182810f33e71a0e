/** The row a statement is certain to produce (insert ... returning, or a read of a row written in the same step). */
export function theRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('The statement produced no row.');
  return row;
}

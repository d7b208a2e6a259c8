// Naming a log row in the hash. Rows sharing a nanosecond are routine (one batch is one clock
// read), so a row is its time and its place among the rows of that time: `<ns>.<n>`, n from 0 in
// the list's order (newest first, the API's total order).

export interface Timed { time_unix_nano: string }

export function rowKey(list: readonly Timed[], i: number): string {
  let nth = 0;
  for (let j = i - 1; j >= 0 && list[j].time_unix_nano === list[i].time_unix_nano; j--) nth++;
  return list[i].time_unix_nano + '.' + nth;
}

/** The index of the row a key names, or -1 (a key without `.n` names the first row of its time). */
export function findRow(list: readonly Timed[], key: string): number {
  if (!key) return -1;
  const [time, nth] = key.split('.');
  const want = Number(nth ?? '0');
  let seen = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i].time_unix_nano !== time) continue;
    if (seen === want) return i;
    seen++;
  }
  return -1;
}

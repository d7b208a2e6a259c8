// The boot script: a few hundred bytes, loaded async ahead of the app's script, it sends the logs
// view's first query while the browser is still fetching and compiling the app. lib/early.ts takes
// the answer.
import { earlyRequest, storedToken, type Early } from './request';

const w = window as unknown as { miraEarly?: Early; miraStarted?: boolean };
// Arrived after the app has asked for its first page itself (a slow answer for this file): nothing to do.
const r = w.miraStarted ? null : earlyRequest(location.hash, storedToken());
if (r) {
  const answer = fetch('/api/v1/query', { method: 'POST', headers: r.headers, body: r.body })
    .then(async (res) => ({ status: res.status, statusText: res.statusText, text: await res.text() }));
  // Whoever takes it handles its failure; left untaken, a failure is not an unhandled rejection.
  answer.catch(() => {});
  w.miraEarly = { body: r.body, answer };
}

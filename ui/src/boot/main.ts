// The boot script: a few hundred bytes that the build writes into index.html as an inline script
// (vite.config.ts), so the HTML parser runs it before the app's script is even requested; it sends
// the logs view's first query while the browser fetches and compiles the app. lib/early.ts takes
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

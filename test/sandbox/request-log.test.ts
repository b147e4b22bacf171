// The request log kept for tests is bounded (REQUEST_LOG_SIZE, README: Control endpoints): a sandbox
// that serves a CI pipeline for hours keeps the latest requests, not all of them.
import { describe, expect, it } from 'vitest';
import { REQUEST_LOG_SIZE } from '../../src/sandbox/index.js';
import { call, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox({ seed: {} });

describe('the request log', () => {
  it(`keeps the latest ${REQUEST_LOG_SIZE.toLocaleString('en')} to ${(REQUEST_LOG_SIZE + 1_000).toLocaleString('en')} requests, dropping the oldest`, async () => {
    const total = REQUEST_LOG_SIZE + 1_500;
    // In rounds of 50 at once: every request of a round is answered before the next round starts.
    for (let first = 0; first < total; first += 50) {
      const round = Array.from({ length: Math.min(50, total - first) }, (_, i) => first + i);
      const answers = await Promise.all(round.map((n) => call(sb(), 'GET', `/?n=${n}`)));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
    const { requests } = sb();
    expect(requests.length).toBeGreaterThanOrEqual(REQUEST_LOG_SIZE);
    expect(requests.length).toBeLessThan(REQUEST_LOG_SIZE + 1_000);
    const kept = requests.map((request) => Number(new URL(request.url, 'http://x').searchParams.get('n')));
    // The newest are all there; what was dropped is the oldest.
    expect(new Set(kept)).toEqual(new Set(Array.from({ length: requests.length }, (_, i) => total - requests.length + i)));
    expect(kept).not.toContain(0);
    // The control endpoint serves the same bounded log, and is not recorded itself.
    const listed = await call(sb(), 'GET', '/sandbox/requests');
    expect(listed.body).toHaveLength(requests.length);
    expect((await call(sb(), 'GET', '/sandbox/stats')).body.requests).toBe(requests.length);
  });
});

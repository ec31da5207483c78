/**
 * When to refresh a view after a change notification (pure, unit-tested).
 *
 * A burst of notifications is coalesced (`debounceMs`), and while notifications keep
 * coming the view refreshes at most once per `minIntervalMs`: each refresh asks the
 * server for every skill, which on a 10,000-skill deck is a few hundred milliseconds
 * of its time that typing in a description would otherwise spend once a second.
 */
export function refreshDelay(
  now: number,
  lastRefresh: number | undefined,
  debounceMs: number,
  minIntervalMs: number,
): number {
  if (lastRefresh === undefined) {
    return debounceMs;
  }
  return Math.max(debounceMs, lastRefresh + minIntervalMs - now);
}

// "Did you mean ...?" for near-miss values of an enumerated flag (event types, and any other list).

/** Edit distance (insert, delete, substitute, swap of two neighbours). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * What `value` probably meant. A start of candidates (`user`, `group.member`) names a family: every
 * candidate it starts. Otherwise the candidates closest to it, best first (at most `max`), when they
 * are close enough to be a likely typo: within a third of the value's length, and never more than 4
 * edits. Case is ignored.
 */
export function suggest(value: string, candidates: readonly string[], max = 3): string[] {
  const wanted = value.trim().toLowerCase();
  if (wanted === '') return [];
  if (wanted.length >= 3) {
    const family = candidates.filter((candidate) => candidate.toLowerCase().startsWith(wanted));
    if (family.length > 0) return family;
  }
  const limit = Math.min(4, Math.max(1, Math.floor(wanted.length / 3)));
  const scored = candidates
    // The distance is at least the difference in length: a long paste is never measured (O(n·m)).
    .filter((candidate) => Math.abs(candidate.length - wanted.length) <= limit)
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= limit);
  if (scored.length === 0) return [];
  const best = Math.min(...scored.map(({ distance }) => distance));
  return scored.filter(({ distance }) => distance === best).slice(0, max).map(({ candidate }) => candidate);
}

/** ` Did you mean a, b or c?` (with its leading space; past 4 names, `or N more`), or '' when nothing is close. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const found = suggest(value, candidates);
  if (found.length === 0) return '';
  const [named, more] = found.length > 4 ? [found.slice(0, 4), `${found.length - 4} more`] : [found.slice(0, -1), found.at(-1)];
  return ` Did you mean ${named.length === 0 ? more : `${named.join(', ')} or ${more}`}?`;
}

/**
 * A value refused for not being one of `choices`, in one sentence: `--auth must be one of: bearer,
 * basic, custom-header, not "Bearer"`. The value is quoted only when it is a near miss of a choice
 * (suggest finds one): anything else typed there may be a token (`--auth 'Bearer eyJ…'`, `--auth
 * hunter2`), and no message quotes a secret. `listed`: the choices as the message names them.
 */
export function notOneOf(name: string, choices: readonly string[], value: string, listed = choices.join(', ')): string {
  return `${name} must be one of: ${listed}${suggest(value, choices).length > 0 ? `, not "${value}"` : ''}.`;
}

// The documented shapes of the interface's identifiers (../shared/spec/wire-facts.md, "Identifiers"):
// checked before any request, so that a typo is a usage error (exit 2) and never reaches a URL.
// Plain regular expressions, without zod: flag parsing and completion use them on every start.

export const ID_SHAPES = {
  stream: { name: 'stream id', pattern: /^est_[A-Za-z0-9]{22}$/, words: 'est_ and 22 letters or digits', example: 'est_2mNwzVbDq8sXe4RtY6uJkL' },
  event: { name: 'event id', pattern: /^evt_[A-Za-z0-9]{22}$/, words: 'evt_ and 22 letters or digits', example: 'evt_6pVbXr0TqL2mWc8ZyK4sNd' },
  connection: { name: 'connection id', pattern: /^con_[A-Za-z0-9]{16}$/, words: 'con_ and 16 letters or digits', example: 'con_Xy12AbCdEf345678' },
} as const;
export type IdKind = keyof typeof ID_SHAPES;

/** Why `value` is not an id of that kind (a sentence with the rule), or undefined. */
export function idProblem(kind: IdKind, value: string): string | undefined {
  const shape = ID_SHAPES[kind];
  if (shape.pattern.test(value)) return undefined;
  const size = value.length === 0 ? 'it is empty' : `it has ${value.length} character${value.length === 1 ? '' : 's'}`;
  // The rest of an id without its prefix (copied from a URL or a console without it): the id it would
  // be, which holds letters, digits and the prefix's underscore only (safe to paste in a shell).
  const prefixed = `${shape.example.slice(0, shape.example.indexOf('_') + 1)}${value}`;
  const near = shape.pattern.test(prefixed) ? ` Did you mean ${prefixed}?` : '';
  return `${capitalizedArticle(shape.name)} ${shape.name} is ${shape.words}, ${shape.example.length} characters in all (${size}).${near}`;
}

/** `a stream id`, `an event id`: the article of a name, by its first letter's sound (the names here are plain words). */
export function article(name: string): 'a' | 'an' {
  return /^[aeiou]/i.test(name) ? 'an' : 'a';
}

function capitalizedArticle(name: string): string {
  return article(name) === 'an' ? 'An' : 'A';
}

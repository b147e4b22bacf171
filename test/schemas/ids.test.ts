// One rule for the shape of a stream id (src/schemas/ids.ts): the zod schema that records are built
// and checked with says what the CLI's input check says, for ids of the right length too.
import { describe, expect, it } from 'vitest';
import { EventStreamIdSchema } from '../../src/schemas/index.js';
import { idProblem } from '../../src/schemas/ids.js';

const VALUES = [
  'est_2mNwzVbDq8sXe4RtY6uJkL', // the documented example
  'est_demoInboxBearer0000000',
  'est_2mNwzVbDq8sXe4RtY6uJk-', // 26 characters, one not a letter or digit
  'evt_2mNwzVbDq8sXe4RtY6uJkL', // 26 characters, another prefix
  'EST_2mNwzVbDq8sXe4RtY6uJkL',
  'est_2mNwzVbDq8sXe4RtY6uJk', // 25
  'est_2mNwzVbDq8sXe4RtY6uJkLx', // 27
  '',
  'x'.repeat(26),
];

describe('the stream id', () => {
  it.each(VALUES)('%j: the schema and the input check agree', (value) => {
    expect(EventStreamIdSchema.safeParse(value).success).toBe(idProblem('stream', value) === undefined);
  });

  it('a 26-character value of another shape is not a stream id', () => {
    expect(EventStreamIdSchema.safeParse('est_2mNwzVbDq8sXe4RtY6uJk-').success).toBe(false);
    expect(EventStreamIdSchema.safeParse('est_2mNwzVbDq8sXe4RtY6uJkL').success).toBe(true);
  });
});

describe('an id given without its prefix', () => {
  it.each([
    ['connection', 'googleAppsDemo01', 'con_googleAppsDemo01'],
    ['stream', 'demoInboxBasic00000000', 'est_demoInboxBasic00000000'],
    ['event', '6pVbXr0TqL2mWc8ZyK4sNd', 'evt_6pVbXr0TqL2mWc8ZyK4sNd'],
  ] as const)('%s: the id it would be is suggested', (kind, value, id) => {
    expect(idProblem(kind, value)).toMatch(new RegExp(` Did you mean ${id}\\?$`));
  });

  it.each([
    ['connection', 'googleAppsDemo0'], // one short
    ['connection', 'googleAppsDemo01x'], // one long
    ['connection', "googleApps'emo01"], // not a letter or digit
    ['stream', 'evt_6pVbXr0TqL2mWc8ZyK'], // the prefix of another kind: 22 characters, one not a letter or digit
    ['stream', ''],
  ] as const)('%s, %j, that no prefix makes right: no suggestion', (kind, value) => {
    expect(idProblem(kind, value)).not.toMatch(/Did you mean/);
  });
});

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

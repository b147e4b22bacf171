// The answer shown after the event-type checklist once chosen: on the question's row, never wrapped.
import { describe, expect, it } from 'vitest';
import { chosenTypesAnswer } from '../../../src/commands/streams/format.js';
import { displayWidth } from '../../../src/output/width.js';

describe('chosenTypesAnswer', () => {
  const question = 'Event types';
  const row = (columns: number, types: string[]) => `✔ ${question} ${chosenTypesAnswer(question, columns)(types)}`;

  it('every type while they fit the row', () => {
    expect(row(80, ['user.created', 'user.deleted'])).toBe('✔ Event types user.created, user.deleted');
  });

  it('else the first ones that fit and how many more, else the count; never the last column', () => {
    const types = ['organization.member.role.assigned', 'organization.member.role.deleted', 'user.created', 'user.deleted'];
    expect(row(80, types)).toBe('✔ Event types organization.member.role.assigned and 3 more');
    expect(row(40, types)).toBe('✔ Event types 4 event types');
    for (const columns of [40, 50, 60, 79, 80, 81, 120]) expect(displayWidth(row(columns, types)), String(columns)).toBeLessThan(columns);
  });

  it("a server's type is made safe before it is measured", () => {
    expect(row(80, ['user\u001b[2J.created'])).toBe('✔ Event types user\\x1b[2J.created');
  });
});

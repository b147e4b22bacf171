// The CLI skips a request schema where the body it would check is the schema's by construction
// (streams test with no --data: isEventType over the list the schema holds). Here the two agree on
// every event type and on what is not one, so that the shortcut cannot drift from the schema.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, isEventType } from '../../src/schemas/constants.js';
import { testEventRequestSchema } from '../../src/schemas/requests.js';

describe('the test event body without data', () => {
  it.each([...EVENT_TYPES, 'user.Created', 'user.created ', '', 'user', 'organization.member.added.x'])('%j: isEventType and the schema agree', (type) => {
    expect(testEventRequestSchema().safeParse({ event_type: type }).success).toBe(isEventType(type));
  });
});

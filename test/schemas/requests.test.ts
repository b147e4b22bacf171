// The CLI skips a request schema where the body it would check is the schema's by construction
// (streams test with no --data: isEventType over the list the schema holds) or passes a plain check
// (a provisioning body: schemas/mapping.ts plainProvisioningBody). Here each shortcut agrees with its
// schema, so that it cannot drift from it: it passes nothing the schema refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, isEventType } from '../../src/schemas/constants.js';
import { plainProvisioningBody } from '../../src/schemas/mapping.js';
import { provisioningRequestSchema, testEventRequestSchema } from '../../src/schemas/requests.js';

describe('the test event body without data', () => {
  it.each([...EVENT_TYPES, 'user.Created', 'user.created ', '', 'user', 'organization.member.added.x'])('%j: isEventType and the schema agree', (type) => {
    expect(testEventRequestSchema().safeParse({ event_type: type }).success).toBe(isEventType(type));
  });
});

describe('a provisioning body checked without the schema', () => {
  const attribute = fc.oneof(
    fc.constantFrom('email', ' email ', 'name.givenName', 'primaryEmail', '', '  ', 'e\u200bmail', 'a\tb', 'x'.repeat(257), 'émail'),
    fc.string({ maxLength: 12 }),
  );
  const row = fc.oneof(
    fc.record({ platform: attribute, idp: attribute }),
    fc.record({ platform: attribute, idp: attribute, extra: fc.string() }),
    fc.record({ platform: attribute }),
    fc.anything(),
  );
  const body = fc.record(
    {
      mapping: fc.oneof(fc.array(row, { maxLength: 6 }), fc.anything()),
      synchronize_automatically: fc.oneof(fc.boolean(), fc.anything()),
      synchronize_groups: fc.oneof(fc.constantFrom('all', 'off', 'selected', 'ALL', ''), fc.anything()),
      other: fc.anything(),
    },
    { requiredKeys: [] },
  );

  it('passes only what the schema passes, as the schema gives it back', () => {
    fc.assert(
      fc.property(body, (value) => {
        const plain = plainProvisioningBody(value);
        const parsed = provisioningRequestSchema().safeParse(value);
        if (plain !== undefined) {
          expect(parsed.success).toBe(true);
          expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    [{ mapping: [{ platform: 'email', idp: 'primaryEmail' }] }],
    [{ mapping: [{ platform: ' email ', idp: 'primaryEmail ' }, { platform: 'name', idp: 'fullName' }], synchronize_automatically: true }],
    [{ synchronize_groups: 'selected' }],
    [{}],
  ])('takes the bodies the flags make (%j), so that they need no schema', (value) => {
    expect(plainProvisioningBody(value)).toEqual(provisioningRequestSchema().parse(value));
  });

  it.each([
    [{ mapping: [] }],
    [{ mapping: [{ platform: 'email', idp: 'a' }, { platform: ' email', idp: 'b' }] }],
    [{ mapping: [{ platform: 'e\u200bmail', idp: 'a' }] }],
    [{ synchronize_groups: 'some' }],
    [{ colour: 'red' }],
  ])('leaves %j to the schema, which words the problem', (value) => {
    expect(plainProvisioningBody(value)).toBeUndefined();
    expect(provisioningRequestSchema().safeParse(value).success).toBe(false);
  });
});

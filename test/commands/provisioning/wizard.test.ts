// The mapping in the wizard's summary (src/commands/provisioning/wizard.ts): the whole mapping is
// shown when editing begins and printed once created, so the summary says only its size and what
// differs from where the user started.
import { describe, expect, it } from 'vitest';
import { mappingSummary } from '../../../src/commands/provisioning/wizard.js';

const DEFAULT = [
  { platform: 'external_id', idp: 'id' },
  { platform: 'email', idp: 'primaryEmail' },
  { platform: 'name', idp: 'name.fullName' },
];

describe('mappingSummary', () => {
  it('an untouched default: the count only', () => {
    expect(mappingSummary(DEFAULT, DEFAULT)).toEqual(["Mapping                    3 rows: the strategy's default, unchanged"]);
  });

  it('an edited default: the counts and the rows that differ', () => {
    const edited = [{ platform: 'external_id', idp: 'externalId' }, DEFAULT[2]!, { platform: 'department', idp: 'orgUnit' }];
    expect(mappingSummary(edited, DEFAULT)).toEqual([
      "Mapping                    3 rows: the strategy's default with 1 changed, 1 removed, 1 added",
      '  changed  external_id = externalId (was id)',
      '  removed  email = primaryEmail',
      '  added    department = orgUnit',
    ]);
  });

  it('no default to start from: the rows added', () => {
    expect(mappingSummary([DEFAULT[0]!], [])).toEqual(['Mapping                    1 row, added here', '  added    external_id = id']);
  });

  it('a mapping from the flags, or none (the service applies the default)', () => {
    expect(mappingSummary(DEFAULT, undefined)).toEqual(['Mapping                    3 rows, from the flags']);
    expect(mappingSummary(undefined, DEFAULT)).toEqual(["Mapping                    (the strategy's default, applied by the service)"]);
  });
});

// The "did you mean" of near-miss values (src/cli/suggest.ts), on the event types it serves.
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggest } from '../../src/cli/suggest.js';
import { EVENT_TYPES } from '../../src/schemas/constants.js';
import { runInProcess } from '../helpers/cli.js';

describe('suggest', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('user.created', 'user.created')).toBe(0);
    expect(editDistance('user.create', 'user.created')).toBe(1);
    expect(editDistance('user.craeted', 'user.created')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it.each([
    ['user.create', ['user.created']],
    ['User.Created', ['user.created']],
    ['usr.deleted', ['user.deleted']],
    ['group.member.add', ['group.member.added']],
    ['organisation.created', ['organization.created']],
  ])('suggests %s -> %s', (typo, expected) => {
    expect(suggest(typo, EVENT_TYPES)).toEqual(expected);
  });

  it('suggests nothing for values that are not near any', () => {
    expect(suggest('login', EVENT_TYPES)).toEqual([]);
    expect(suggest('', EVENT_TYPES)).toEqual([]);
    expect(didYouMean('x', EVENT_TYPES)).toBe('');
  });

  it('names several equally close candidates', () => {
    expect(didYouMean('user.updatd', ['user.update', 'user.updated', 'other'])).toBe(' Did you mean user.update or user.updated?');
  });
});

describe('suggest: a start of the names', () => {
  it('names every event type a prefix starts', () => {
    expect(suggest('user', EVENT_TYPES)).toEqual(['user.created', 'user.deleted', 'user.updated']);
    expect(didYouMean('user', EVENT_TYPES)).toBe(' Did you mean user.created, user.deleted or user.updated?');
    expect(didYouMean('User.', EVENT_TYPES)).toBe(' Did you mean user.created, user.deleted or user.updated?');
  });

  it('names four of a large family and counts the rest', () => {
    expect(suggest('group', EVENT_TYPES)).toHaveLength(7);
    expect(didYouMean('group', EVENT_TYPES)).toBe(' Did you mean group.created, group.deleted, group.member.added, group.member.deleted or 3 more?');
  });

  it('needs three characters to call a value a prefix', () => {
    expect(suggest('us', EVENT_TYPES)).toEqual([]);
  });
});

describe('unknown commands', () => {
  const run = (args: string[]) => runInProcess(args, { configDir: '/nonexistent-idm-config' });

  it.each([
    [['provisioning', 'updat'], "Unknown command 'updat'.", 'The commands of idm provisioning: list, show, create, update, delete, default-mapping, sync, groups.'],
    [['streams', 'tset'], "Unknown command 'tset'.", 'The commands of idm streams: list, show, create, update, enable, disable, delete, test, deliveries, redeliver, stats.'],
    [['streams', 'delet'], "Unknown command 'delet'.", expect.stringContaining('delete')],
    [['streams', 'lst'], "Unknown command 'lst'. Did you mean list?", expect.stringContaining('The commands of idm streams: ')],
    [['strems'], "Unknown command 'strems'. Did you mean streams?", expect.stringContaining('The commands of idm: login, logout, auth, ')],
  ])('idm %j: never suggests a command that changes something; lists the commands', async (args, message, hint) => {
    const result = await run(['--json', ...args]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'usage', message, hint });
  });
});

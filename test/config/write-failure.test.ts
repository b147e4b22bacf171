// A settings write the file system refuses (src/config/files.ts writeFailure): the file, the cause in
// words, and the fix that cause calls for; any other error is left as it is.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { writeFailure } from '../../src/config/files.js';

const refused = (code: string) => writeFailure('/home/u/.config/idm/config.json', Object.assign(new Error(code), { code })) as ConfigError;

describe('a settings write the file system refuses', () => {
  it.each([
    ['ENOSPC', 'the disk is full', 'Free some disk space and run the command again.'],
    ['EDQUOT', 'the disk quota is used up', 'Free some disk space and run the command again.'],
    ['EFBIG', 'the file is too large', 'A limit on file size (ulimit -f) stopped it: raise it, or set IDM_CONFIG_DIR to a directory elsewhere.'],
    ['EIO', 'an input/output error', 'The device failed to write: check the disk, or set IDM_CONFIG_DIR to a directory elsewhere.'],
    ['EACCES', 'permission denied', 'Make /home/u/.config/idm writable by you (idm keeps it 0700), or set IDM_CONFIG_DIR to a directory of your own.'],
  ])('%s: names the file and the cause, with the fix for that cause (exit 2)', (code, words, hint) => {
    const error = refused(code);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`Could not write /home/u/.config/idm/config.json: ${words}; nothing was changed.`);
    expect(error.hint).toBe(hint);
    expect(error.exitCode).toBe(2);
  });

  it('another error is left as it is', () => {
    const other = Object.assign(new Error('boom'), { code: 'EWHATEVER' });
    expect(writeFailure('/x', other)).toBe(other);
  });
});

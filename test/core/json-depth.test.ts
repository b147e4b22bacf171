import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeper } from '../../src/core/json-depth.js';

const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`) as unknown;

describe('nestsDeeper', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(nestsDeeper(1, 0)).toBe(false);
    expect(nestsDeeper('x', 0)).toBe(false);
    expect(nestsDeeper(null, 0)).toBe(false);
    expect(nestsDeeper([], 0)).toBe(true);
    expect(nestsDeeper({ a: { b: [1] } }, 3)).toBe(false);
    expect(nestsDeeper({ a: { b: [1] } }, 2)).toBe(true);
  });

  it('is true just past the limit, and walks a hostile depth without overflowing the stack', () => {
    expect(nestsDeeper(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeper(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeper(nested(100_000))).toBe(true);
    expect(nestsDeeper({ ok: [{}], deep: nested(MAX_JSON_DEPTH) })).toBe(true);
  });
});

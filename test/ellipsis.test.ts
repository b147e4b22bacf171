// One voice: text idm shows (messages, prompts, hints, placeholders) elides with `…`, never `...`
// (`Checking the credentials with host…`, `est_…`). Usage notation keeps commander's own form for a
// repeatable argument (`<group-id...>`, `[names...]`). Every string and template literal of src/ is
// read with the TypeScript parser, so that comments and spread syntax are not text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url).pathname;
const NOTATION = /[<[][^<>[\]]*\.\.\.[>\]]/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

/** Every `...` in a string or template literal of `file`: `path:line: text`. */
function dots(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const text = node.text.replace(NOTATION, '');
      if (text.includes('...')) found.push(`${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('text idm shows', () => {
  it('elides with … (usage notation aside)', () => {
    expect(files(SRC).flatMap(dots)).toEqual([]);
  });

  it('the scan sees literals and nothing else', () => {
    const sample = join(SRC, '..', 'test', 'ellipsis.test.ts');
    // This file's own literals hold `...` (the pattern above): the scan finds them.
    expect(dots(sample).length).toBeGreaterThan(0);
  });
});

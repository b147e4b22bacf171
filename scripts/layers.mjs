#!/usr/bin/env node
// The layering of src/ (README, "Development"): imports run one way,
//   main -> commands -> cli -> api / auth / config -> output -> io -> core
// with schemas/ beside core/; api/ may use auth/ and config/, auth/ may use config/; the sandbox is a
// program of its own that uses schemas/ and core/ only, and only main, commands and cli start it.
// Prints every import between top-level folders of src/ that runs upward or sideways, and every
// cycle between folders; then one summary line.
//   node scripts/layers.mjs [SRC_DIR]        exit 0: none, 1: some, 2: no such directory
// The same rule as the workplace's checker (../shared/tools/layers.mjs); test/layers.test.ts runs
// both and expects them to agree. Two things it sees that one does not: side-effect imports
// (`import './x.js'`), and an import of src/main.ts by its .js name.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Rank of each top-level folder (or file, by its name without extension): a higher rank may import a lower one. */
const RANK = { core: 0, schemas: 0, io: 1, output: 2, config: 3, auth: 3, api: 3, cli: 4, commands: 5, main: 6, sandbox: 7 };
/** Folders of one rank that may import each other, in this direction only. */
const SIDEWAYS = new Set(['api>auth', 'api>config', 'auth>config']);
/** What the sandbox may import, and who may import the sandbox. */
const SANDBOX_USES = new Set(['core', 'schemas']);
const STARTS_SANDBOX = new Set(['main', 'commands', 'cli']);

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The layering problems of the tree at `src`, in the order found, and how many files were read. */
function checkLayers(src) {
  const files = sourceFiles(src);
  const top = (path) => relative(src, path).split(sep)[0].replace(/\.(ts|mts|js|mjs)$/, '');
  const edges = new Map(); // 'a>b' -> files of a importing b
  const problems = new Set();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1] ?? match[2] ?? match[3]);
      if (!target.startsWith(src + sep)) continue;
      const [from, to] = [top(file), top(target)];
      if (from === to) continue;
      const edge = `${from}>${to}`;
      edges.set(edge, [...(edges.get(edge) ?? []), file]);
      if (RANK[from] === undefined || RANK[to] === undefined) continue;
      const what = `${relative(src, file)} imports ${relative(src, target)}`;
      if (from === 'sandbox') {
        if (!SANDBOX_USES.has(to)) problems.add(`sandbox may use core and schemas only: ${what}`);
      } else if (to === 'sandbox') {
        if (!STARTS_SANDBOX.has(from)) problems.add(`only commands start the sandbox: ${what}`);
      } else if (RANK[to] > RANK[from]) {
        problems.add(`upward (${from} -> ${to}): ${what}`);
      } else if (RANK[to] === RANK[from] && !SIDEWAYS.has(edge)) {
        problems.add(`sideways (${from} -> ${to}): ${what}`);
      }
    }
  }
  // A cycle between folders, named once by each of its edges that runs from a name to a later one.
  const next = new Map();
  for (const edge of edges.keys()) {
    const [from, to] = edge.split('>');
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const reaches = (from, goal) => {
    const seen = new Set([from]);
    const stack = [from];
    while (stack.length > 0) {
      for (const to of next.get(stack.pop()) ?? []) {
        if (to === goal) return true;
        if (seen.has(to)) continue;
        seen.add(to);
        stack.push(to);
      }
    }
    return false;
  };
  for (const edge of edges.keys()) {
    const [from, to] = edge.split('>');
    if (from < to && reaches(to, from)) problems.add(`cycle between ${from}/ and ${to}/`);
  }
  return { problems: [...problems], files: files.length, edges: edges.size };
}

const src = resolve(process.argv[2] ?? 'src');
if (!existsSync(src)) {
  console.error(`no ${src}`);
  process.exit(2);
}
const { problems, files, edges } = checkLayers(src);
for (const problem of problems) console.log(problem);
console.log(problems.length > 0 ? `${problems.length} layering problem(s) in ${files} files` : `layers ok: ${files} files, ${edges} folder-to-folder imports, none upward or in a cycle`);
process.exit(problems.length > 0 ? 1 : 0);

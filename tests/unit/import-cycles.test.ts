// No import loops in the client or the server: a loop ties every module on it into one unit that
// can only be read, tested and split together (the 35-file loop through the screen table was one).
// Type-only and lazy imports count too: they are arrows a reader has to follow all the same.
import { describe, expect, it } from 'vitest';
import { parseCircular, parseDependencyTree } from 'dpdm';

const root = new URL('../..', import.meta.url).pathname;

async function cycles(entries: string[]): Promise<string[]> {
  const tree = await parseDependencyTree(entries, { cwd: root, context: root, tsconfig: `${root}tsconfig.json`, transform: false, skipDynamicImports: false });
  return parseCircular(tree).map((loop) => loop.join(' → '));
}

describe('import loops', () => {
  it('the web app and the sign-in app have none', { timeout: 60_000 }, async () => {
    expect(await cycles(['src/main.tsx', 'src/account/main.tsx'])).toEqual([]);
  });

  it('the server, its workers, the scripts and the benchmarks have none', { timeout: 60_000 }, async () => {
    expect(await cycles(['server/main.ts', 'server/worker.ts', 'server/threads/entry.mjs', 'scripts/*.ts', 'bench/index.ts'])).toEqual([]);
  });
});

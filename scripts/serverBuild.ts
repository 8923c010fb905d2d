// Bundles the server (server/main.ts and what it imports from this repository) into one
// JavaScript file, dist-server/main.mjs, that plain Node.js runs. Started through the TypeScript
// loader, every module the server loads (packages included) passed through tsx's loader thread:
// half of a start's CPU, and a thread with its own memory for the process's whole life.
// Packages stay outside the bundle and load from node_modules as before.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, SERVER_BUNDLE, SERVER_INPUTS, serverBuildIsFresh } from './buildStamps.mjs';

export { SERVER_BUNDLE };

export async function ensureServerBuild(): Promise<void> {
  if (serverBuildIsFresh()) return;
  console.log('正在构建服务端…');
  const { build } = await import('esbuild');
  // Written in a folder of this build's own, then moved: two test files may build at the same time,
  // and a server must never start on a half-written file.
  const partial = join(dirname(SERVER_BUNDLE), `.build-${process.pid}`, basename(SERVER_BUNDLE));
  mkdirSync(dirname(partial), { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'server', 'main.ts')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    // Beside the bundle, for NODE_OPTIONS=--enable-source-maps when a stack trace should name the sources.
    sourcemap: 'linked',
    logLevel: 'warning',
    // server/cluster.ts forks the API processes from the entry the server runs from.
    define: { __SERVER_BUNDLE__: JSON.stringify(SERVER_BUNDLE) },
    plugins: [sourcePaths],
  });
  renameSync(`${partial}.map`, `${SERVER_BUNDLE}.map`);
  renameSync(partial, SERVER_BUNDLE);
  rmSync(dirname(partial), { recursive: true, force: true });
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, join(process.cwd(), file)));
  writeFileSync(`${SERVER_INPUTS}.${process.pid}`, JSON.stringify(inputs));
  renameSync(`${SERVER_INPUTS}.${process.pid}`, SERVER_INPUTS);
}

/**
 * Each module keeps its own import.meta.url, dirname and filename: the paths the server builds from
 * them (the migrations folder, the web build, the heavy-work threads' TypeScript modules, the
 * packages resolved with createRequire) stay those of the source tree, as under tsx.
 */
const sourcePaths = {
  name: 'source-paths',
  setup(build: import('esbuild').PluginBuild) {
    build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, ({ path }) => {
      const meta: Record<string, string> = { url: pathToFileURL(path).href, dirname: dirname(path), filename: path };
      const source = readFileSync(path, 'utf8').replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) => JSON.stringify(meta[key]));
      const ext = extname(path);
      return { contents: source, loader: ext === '.ts' || ext === '.mts' ? 'ts' : 'js' };
    });
  },
};

if (import.meta.url === `file://${process.argv[1]}`) await ensureServerBuild();

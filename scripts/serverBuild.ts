// Bundles the server (server/main.ts and what it imports from this repository) into JavaScript
// that plain Node.js runs: dist-server/current/main.mjs, and a chunk for each part the server
// loads only when needed (the demo seed, the OCR engine, the builds' tools), so their packages load
// only then too. Started through the TypeScript loader, every module the server loads (packages
// included) passed through tsx's loader thread: a large part of a start's CPU, and a thread with its
// own memory for the process's whole life. Packages stay outside the bundle, in node_modules.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, SERVER_BUNDLE, serverBuildIsFresh } from './buildStamps.mjs';

export { SERVER_BUNDLE };

const BUILDS = dirname(dirname(SERVER_BUNDLE));

export async function ensureServerBuild(): Promise<void> {
  if (serverBuildIsFresh()) return;
  console.log('正在构建服务端…');
  const { build } = await import('esbuild');
  // Each build has a folder of its own and `current` is then pointed at it in one step: two test
  // files may build at the same time, and a server must never start on a half-written build, nor
  // lose the chunks it loads later because a newer build replaced them.
  const began = Date.now();
  const id = `build-${began}-${process.pid}`;
  const outdir = join(BUILDS, id);
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: [join(root, 'server', 'main.ts')],
    outdir,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    // Beside each file, for NODE_OPTIONS=--enable-source-maps when a stack trace should name the sources.
    sourcemap: 'linked',
    logLevel: 'warning',
    // server/cluster.ts forks the API processes from this build's entry.
    define: { __SERVER_BUNDLE__: JSON.stringify(join(outdir, 'main.mjs')) },
    plugins: [sourcePaths],
  });
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, join(process.cwd(), file)));
  writeFileSync(join(outdir, 'inputs.json'), JSON.stringify({ root, began, inputs }));
  const link = join(BUILDS, `.current-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(id, link);
  renameSync(link, dirname(SERVER_BUNDLE));
  removeOldBuilds(id);
}

/**
 * Removes builds other than the newest four that are over a week old. A running server loads
 * chunks of its own build long after its start (the grading engine at the first upload, say) and
 * forks its API processes from it again, so a build goes only when a newer one has long replaced it.
 */
function removeOldBuilds(keep: string): void {
  const builds = readdirSync(BUILDS)
    .filter((name) => name.startsWith('build-') && name !== keep)
    .map((name) => ({ name, made: statSync(join(BUILDS, name)).mtimeMs }))
    .sort((a, b) => b.made - a.made);
  for (const { name, made } of builds.slice(3)) {
    if (Date.now() - made > 7 * 24 * 3600_000 && existsSync(join(BUILDS, name))) rmSync(join(BUILDS, name), { recursive: true, force: true });
  }
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

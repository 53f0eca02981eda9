import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';

/**
 * The code cites the repository's own documents (docs/, README, CHANGELOG) and Slack's public documentation,
 * never a file a reader of the repository does not have: the product specification and Slack notes this project
 * was first built from are not in it.
 */
// A POSIX extended expression (grep -E): no \d or \s.
const OUTSIDE = 'spec sections?[[:space:]]+[0-9]|SLACK_NOTES|product-spec\\.md|shared/spec/';

describe('documents the code cites', () => {
  it('no source, test, doc or script cites a document outside the repository', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\.(ts|tsx|js|mjs|md|sh|json|yml|yaml)$/.test(f) && !f.includes('node_modules'))
      .filter(
        (f) =>
          !f.startsWith('packages/slack-emulator/spec/') && f !== 'apps/server/src/docs-references.test.ts',
      );
    expect(files.length).toBeGreaterThan(300);
    // grep exits 1 when nothing matches: its output is what counts.
    const cites = spawnSync('grep', ['-nEi', OUTSIDE, '--', ...files], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .stdout.split('\n')
      .filter(Boolean);
    expect(cites).toEqual([]);
  });
});

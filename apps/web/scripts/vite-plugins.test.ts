import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootPreload } from './vite-plugins.ts';

const root = '/app';
const chunk = (fileName: string, facade: string | null, imports: string[] = [], isEntry = false) => ({
  type: 'chunk' as const,
  fileName,
  facadeModuleId: facade && path.join(root, facade),
  imports,
  isEntry,
});

/** Runs the plugin over a small bundle: the boot script's text and the page it was put in. */
function build() {
  const plugin = bootPreload('flywheel.session');
  (plugin.configResolved as (c: { root: string }) => void)({ root });
  const bundle: Record<string, unknown> = {
    'index.html': {
      type: 'asset',
      source: '<head><script type="module" src="/assets/index.js"></script></head>',
    },
    'assets/index.js': chunk('assets/index.js', 'src/main.tsx', ['assets/react.js'], true),
    'assets/react.js': chunk('assets/react.js', null),
    'assets/layout.js': chunk('assets/layout.js', 'src/app/shell/DashboardLayout.tsx', [
      'assets/frame.js',
      'assets/react.js',
    ]),
    'assets/frame.js': chunk('assets/frame.js', null),
    'assets/home.js': chunk('assets/home.js', 'src/features/home/HomePage.tsx', ['assets/frame.js']),
    'assets/charts.js': chunk('assets/charts.js', 'src/features/home/HomeDashboard.tsx', [
      'assets/recharts.js',
    ]),
    'assets/recharts.js': chunk('assets/recharts.js', null),
    'assets/analytics.js': chunk('assets/analytics.js', 'src/features/analytics/AnalyticsPage.tsx'),
    'assets/adash.js': chunk('assets/adash.js', 'src/features/analytics/AnalyticsDashboard.tsx', [
      'assets/recharts.js',
    ]),
    'assets/members.js': chunk('assets/members.js', 'src/app/routes/members-pages.tsx'),
    'assets/slots.js': chunk('assets/slots.js', 'src/app/routes/delivery-slots.ts'),
  };
  const emitted: { fileName: string; source: string }[] = [];
  const context = {
    emitFile: (f: { fileName: string; source: string }) => emitted.push(f),
    error: (m: string) => {
      throw new Error(m);
    },
  };
  (plugin.generateBundle as (this: unknown, o: unknown, b: unknown) => void).call(context, {}, bundle);
  return { script: emitted[0]!, html: String((bundle['index.html'] as { source: string }).source) };
}

function run(source: string, pathname: string, session: unknown) {
  window.history.replaceState(null, '', pathname);
  if (session) localStorage.setItem('flywheel.session', JSON.stringify(session));
  new Function(source)();
  return [...document.head.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href'));
}

const live = { token: 't', expiration: new Date(Date.now() + 3_600_000).toISOString() };

afterEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
});

describe('boot preload', () => {
  it('is a script of its own before the entry (the CSP allows no inline script)', () => {
    const { script, html } = build();
    expect(script.fileName).toMatch(/^assets\/boot-[\w-]{8}\.js$/);
    expect(html.indexOf(`<script src="/${script.fileName}"></script>`)).toBeLessThan(
      html.indexOf('type="module"'),
    );
  });

  it("asks a signed-in cold load for the frame's and the page's chunks, not the entry's", () => {
    const { script } = build();
    expect(run(script.source, '/dashboard/home', live).sort()).toEqual(
      [
        '/assets/charts.js',
        '/assets/frame.js',
        '/assets/home.js',
        '/assets/layout.js',
        '/assets/recharts.js',
      ].sort(),
    );
  });

  it("'/' is Home; Members gets its sending slots", () => {
    const { script } = build();
    expect(run(script.source, '/', live)).toContain('/assets/charts.js');
    document.head.innerHTML = '';
    expect(run(script.source, '/dashboard/members', live)).toEqual(
      expect.arrayContaining(['/assets/members.js', '/assets/slots.js', '/assets/layout.js']),
    );
  });

  it('does nothing signed out, with an expired session, on other pages or with a broken stored value', () => {
    const { script } = build();
    expect(run(script.source, '/dashboard/home', null)).toEqual([]);
    expect(run(script.source, '/dashboard/home', { token: 't', expiration: '2020-01-01T00:00:00Z' })).toEqual(
      [],
    );
    expect(run(script.source, '/dashboard/receipts', live)).toEqual([]);
    expect(run(script.source, '/auth/login', live)).toEqual([]);
    localStorage.setItem('flywheel.session', '{not json');
    expect(() => new Function(script.source)()).not.toThrow();
  });
});

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bootPreload, mantinePatches, STABLE_USE_ID } from './vite-plugins.ts';

const require = createRequire(import.meta.url);

const root = '/app';
const chunk = (
  fileName: string,
  facade: string | null,
  imports: string[] = [],
  isEntry = false,
  css: string[] = [],
) => ({
  type: 'chunk' as const,
  fileName,
  facadeModuleId: facade && path.join(root, facade),
  imports,
  isEntry,
  viteMetadata: { importedCss: new Set(css), importedAssets: new Set<string>() },
});

/** The frame's and the pages' first calls, as app/first-calls.json has them. */
const firstCalls = {
  frame: [{ method: 'GET', path: '/tags/gettags/__TEAM__' }],
  pages: {
    members: [
      {
        method: 'POST',
        path: '/members/getmembersdata',
        body: '{"team_id":"__TEAM__","admin":"__USER__","also":"__TEAM__"}',
      },
    ],
  },
};

/** Runs the plugin over a small bundle: the boot script's text and the page it was put in. */
function build(
  calls: typeof firstCalls | { frame: unknown[]; pages: Record<string, unknown[]> } = firstCalls,
) {
  const plugin = bootPreload('flywheel.session', calls, { team: '__TEAM__', user: '__USER__' }, '/api/v0');
  (plugin.configResolved as (c: { root: string }) => void)({ root });
  const bundle: Record<string, unknown> = {
    'index.html': {
      type: 'asset',
      source: '<head><script type="module" src="/assets/index.js"></script></head>',
    },
    'assets/index.js': chunk('assets/index.js', 'src/main.tsx', ['assets/react.js'], true, [
      'assets/index.css',
    ]),
    'assets/react.js': chunk('assets/react.js', null),
    'assets/layout.js': chunk('assets/layout.js', 'src/app/shell/DashboardLayout.tsx', [
      'assets/frame.js',
      'assets/react.js',
    ]),
    'assets/frame.js': chunk('assets/frame.js', null, [], false, ['assets/frame.css']),
    'assets/home.js': chunk('assets/home.js', 'src/features/home/HomePage.tsx', ['assets/frame.js']),
    'assets/charts.js': chunk('assets/charts.js', 'src/features/home/HomeDashboard.tsx', [
      'assets/chart-kit.js',
    ]),
    'assets/chart-kit.js': chunk('assets/chart-kit.js', null, [], false, ['assets/charts.css']),
    'assets/analytics.js': chunk('assets/analytics.js', 'src/features/analytics/AnalyticsPage.tsx'),
    'assets/adash.js': chunk('assets/adash.js', 'src/features/analytics/AnalyticsDashboard.tsx', [
      'assets/chart-kit.js',
    ]),
    'assets/members.js': chunk('assets/members.js', 'src/app/routes/members-pages.tsx'),
    'assets/slots.js': chunk('assets/slots.js', 'src/app/routes/delivery-slots.ts'),
    'assets/warm.js': chunk('assets/warm.js', 'src/app/warm-start.ts', [
      'assets/queries.js',
      'assets/react.js',
    ]),
    'assets/queries.js': chunk('assets/queries.js', null),
  };
  const emitted: { fileName: string; source: string }[] = [];
  const context = {
    emitFile: (f: { fileName: string; source: string }) => emitted.push(f),
    error: (m: string) => {
      throw new Error(m);
    },
  };
  (plugin.generateBundle as (this: unknown, o: unknown, b: unknown) => void).call(context, {}, bundle);
  const html = String((bundle['index.html'] as { source: string }).source);
  const inline = /<script>([\s\S]*?)<\/script>/.exec(html);
  return { script: { source: inline?.[1] ?? '' }, html, emitted };
}

function run(source: string, pathname: string, session: unknown) {
  window.history.replaceState(null, '', pathname);
  if (session) localStorage.setItem('flywheel.session', JSON.stringify(session));
  new Function(source)();
  return [...document.head.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href'));
}

const live = {
  token: 't',
  userid: 'u-1',
  currentworkspace: 'T1',
  expiration: new Date(Date.now() + 3_600_000).toISOString(),
};

afterEach(() => {
  delete (window as { __flywheelEarly?: unknown }).__flywheelEarly;
  localStorage.clear();
  document.head.innerHTML = '';
});

describe('boot preload', () => {
  it('is inline, before the entry: it runs as soon as the page is in, without a file to wait for', () => {
    const { script, html, emitted } = build();
    expect(emitted).toEqual([]);
    expect(script.source).toContain('localStorage.getItem("flywheel.session")');
    expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('type="module"'));
    // Nothing in it can end the element early: the data it carries has no raw '<'.
    expect(script.source).not.toMatch(/<\/script|<!--/i);
  });

  it("escapes a '<' in the data it carries, so nothing in it ends the element", () => {
    const { html } = build({ frame: [{ method: 'GET', path: '/x</script><script>alert(1)//' }], pages: {} });
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)//');
  });

  it("asks a signed-in cold load for the frame's and the page's chunks, not the entry's", () => {
    const { script } = build();
    expect(run(script.source, '/dashboard/home', live).sort()).toEqual(
      [
        '/assets/charts.js',
        '/assets/frame.js',
        '/assets/home.js',
        '/assets/layout.js',
        '/assets/chart-kit.js',
        // The first data's queries (app/warm-start.ts).
        '/assets/queries.js',
        '/assets/warm.js',
      ].sort(),
    );
  });

  it("adds the page's stylesheets (not the entry's, which the page has), so the app's loader does not wait for them", () => {
    const { script } = build();
    run(script.source, '/dashboard/home', live);
    const sheets = () =>
      [...document.head.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href'));
    expect(sheets().sort()).toEqual(['/assets/charts.css', '/assets/frame.css']);
    document.head.innerHTML = '';
    run(script.source, '/dashboard/members', live);
    expect(sheets()).toEqual(['/assets/frame.css']);
  });

  it("'/' is Home; Members gets its sending slots", () => {
    const { script } = build();
    expect(run(script.source, '/', live)).toContain('/assets/charts.js');
    document.head.innerHTML = '';
    expect(run(script.source, '/dashboard/members', live)).toEqual(
      expect.arrayContaining([
        '/assets/members.js',
        '/assets/slots.js',
        '/assets/layout.js',
        '/assets/warm.js',
      ]),
    );
  });

  it('preloads nothing signed out, with an expired session, on other pages or with a broken stored value', () => {
    const { script } = build();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}'))),
    );
    expect(run(script.source, '/dashboard/home', null)).toEqual([]);
    expect(run(script.source, '/dashboard/home', { token: 't', expiration: '2020-01-01T00:00:00Z' })).toEqual(
      [],
    );
    expect(run(script.source, '/dashboard/receipts', live)).toEqual([]);
    expect(run(script.source, '/auth/login', live)).toEqual([]);
    localStorage.setItem('flywheel.session', '{not json');
    expect(() => new Function(script.source)()).not.toThrow();
  });

  it("sends the frame's and the page's first calls for the session's workspace and user, and keeps them for the app", () => {
    const { script } = build();
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{}')));
    vi.stubGlobal('fetch', fetchMock);
    run(script.source, '/dashboard/members', live);
    const body = '{"team_id":"T1","admin":"u-1","also":"T1"}';
    expect(fetchMock.mock.calls).toEqual([
      [
        '/api/v0/tags/gettags/T1',
        {
          method: 'GET',
          headers: { accept: 'application/json', authorization: 'Bearer t' },
          body: undefined,
        },
      ],
      [
        '/api/v0/members/getmembersdata',
        {
          method: 'POST',
          headers: {
            accept: 'application/json',
            authorization: 'Bearer t',
            'content-type': 'application/json',
          },
          body,
        },
      ],
    ]);
    const sent = (window as { __flywheelEarly?: { path: string; body?: string; token: string }[] })
      .__flywheelEarly!;
    expect(sent.map((s) => [s.path, s.body, s.token])).toEqual([
      ['/tags/gettags/T1', undefined, 't'],
      ['/members/getmembersdata', body, 't'],
    ]);
  });

  it("a member's detail or another dashboard page gets the frame's calls only; no ids, odd ids or no session: none", () => {
    const { script } = build();
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{}')));
    vi.stubGlobal('fetch', fetchMock);
    const paths = () => fetchMock.mock.calls.map((c) => (c as unknown[])[0]);
    run(script.source, '/dashboard/members/U123', live);
    expect(paths()).toEqual(['/api/v0/tags/gettags/T1']);
    fetchMock.mockClear();
    run(script.source, '/dashboard/receipts', live);
    expect(paths()).toEqual(['/api/v0/tags/gettags/T1']);
    fetchMock.mockClear();
    // A name that is not a page (nor anything on Object's prototype) adds nothing.
    run(script.source, '/dashboard/constructor', live);
    expect(paths()).toEqual(['/api/v0/tags/gettags/T1']);
    fetchMock.mockClear();
    // Ids that would change the path or the JSON are not filled in: nothing is sent.
    run(script.source, '/dashboard/members', { ...live, currentworkspace: 'T1/../../x' });
    run(script.source, '/dashboard/members', { ...live, userid: 'u","admin":"x' });
    run(script.source, '/dashboard/members', { ...live, currentworkspace: undefined });
    localStorage.clear();
    run(script.source, '/dashboard/members', null);
    run(script.source, '/auth/login', live);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('Mantine patches', () => {
  const transform = (code: string, id: string) => {
    const plugin = mantinePatches();
    const fail = (m: string) => {
      throw new Error(m);
    };
    return (plugin.transform as (this: unknown, c: string, id: string) => { code: string } | null).call(
      { error: fail },
      code,
      id,
    );
  };
  const real = (file: string) => {
    const [scope, name, ...rest] = file.split('/');
    const main = require.resolve(`${scope}/${name}`);
    const p = path.join(main.slice(0, main.lastIndexOf(`${scope}/${name}/`)), scope!, name!, ...rest);
    return { id: p, code: fs.readFileSync(p, 'utf8') };
  };

  it("useId keeps React's id: no random id swapped in after the first render", () => {
    const { id, code } = real('@mantine/hooks/esm/use-id/use-id.mjs');
    const out = transform(code, id)!.code;
    expect(out).toBe(STABLE_USE_ID);
    expect(out).not.toMatch(/randomId|useState|Effect/);
  });

  it('AppShell starts settled and marks only later resizes', () => {
    const { id, code } = real('@mantine/core/esm/components/AppShell/use-resizing/use-resizing.mjs');
    const out = transform(code, id)!.code;
    expect(out).toContain('useState(false)');
    expect(out).not.toContain('useState(true)');
    expect(out).toMatch(
      /if \(!mountedRef\.current\) \{ mountedRef\.current = true; return; \}\s*setResizing\(true\)/,
    );
    // The resize listener still marks a real resize.
    expect(out).toMatch(/useWindowEvent\("resize", \(\) => \{\s*setResizing\(true\)/);
  });

  it("useMediaQuery renders once, with the media query's answer, as it appears; an explicit wait still waits", async () => {
    const { id, code } = real('@mantine/hooks/esm/use-media-query/use-media-query.mjs');
    // The patched module beside the real one, so it imports the same React.
    const file = id.replace(/\.mjs$/, `.patched-${process.pid}.mjs`);
    fs.writeFileSync(file, transform(code, id)!.code);
    type Hook = (query: string, initial?: boolean, o?: { getInitialValueInEffect: boolean }) => boolean;
    try {
      const patched = ((await import(/* @vite-ignore */ file)) as { useMediaQuery: Hook }).useMediaQuery;
      const original = ((await import(/* @vite-ignore */ id)) as { useMediaQuery: Hook }).useMediaQuery;
      vi.spyOn(window, 'matchMedia').mockImplementation(
        (media) =>
          ({ matches: true, media, addEventListener: () => {}, removeEventListener: () => {} }) as never,
      );
      const renders = (ask: () => boolean) => {
        const seen: boolean[] = [];
        const Probe = () => {
          seen.push(ask());
          return null;
        };
        render(createElement(Probe)).unmount();
        return seen;
      };
      const query = '(prefers-reduced-motion: reduce)';
      expect(renders(() => original(query))).toEqual([false, true]);
      expect(renders(() => patched(query))).toEqual([true]);
      expect(renders(() => patched(query, false, { getInitialValueInEffect: true }))).toEqual([false, true]);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('leaves other modules alone, and fails the build when a patched module changed', () => {
    expect(transform('export const x = 1;', '/n/@mantine/core/esm/components/Button/Button.mjs')).toBeNull();
    expect(() => transform('export { useId };', '/n/@mantine/hooks/esm/use-id/use-id.mjs')).toThrow(
      /use-id\.mjs changed/,
    );
    expect(() =>
      transform(
        'const [resizing] = useState(false);',
        '/n/@mantine/core/esm/components/AppShell/use-resizing/use-resizing.mjs',
      ),
    ).toThrow(/review MANTINE_PATCHES/);
    expect(() =>
      transform(
        'function useMediaQuery(query, initialValue, { getInitialValueInEffect } = { getInitialValueInEffect: true }) {}',
        '/n/@mantine/hooks/esm/use-media-query/use-media-query.mjs',
      ),
    ).toThrow(/use-media-query\.mjs changed/);
  });
});

import path from 'node:path';
import type { Plugin } from 'vite';
import { FRAME, MAIN_PAGES } from './main-pages.mjs';

/** Mantine's useId, as the build has it: React's own id, fixed from the first render. */
export const STABLE_USE_ID = `import { useId as useReactId } from "react";
function useId(staticId) {
	const reactId = useReactId();
	if (typeof staticId === "string") return staticId;
	return \`mantine-\${reactId.replace(/[^A-Za-z0-9_-]/g, "")}\`;
}
export { useId };
`;

type Patch = { file: RegExp; why: string; apply(code: string): string | null };

/**
 * Three of Mantine's modules render the page again after its first render, for nothing a user sees:
 * - useId starts from React's id and then, in a layout effect, swaps it for a random one, so every input,
 *   label, checkbox, popover and modal renders a second time right after it appears (a random id was only
 *   needed before React had useId). The build's useId keeps React's id.
 * - AppShell marks itself as resizing when it first appears and clears the mark 200 ms later (to hold back its
 *   transitions); nothing has moved yet then, so there is nothing to hold back, and the whole shell rendered
 *   again at 200 ms. The build's AppShell starts settled and marks real resizes only.
 * - useMediaQuery starts from the value it is given (none: `undefined`) and reads the media query in an effect,
 *   so everything that asks one renders twice as it appears: every Transition (each popover, tooltip, menu and
 *   modal asks whether motion is reduced), ~20 components on a cold load's first render, again on each open.
 *   That wait is for server rendering, which this app does not do: the build's useMediaQuery reads the media
 *   query as it first renders (an explicit `getInitialValueInEffect: true` still waits).
 * Each patch fails the build when its module no longer looks as expected, so an upgrade is looked at.
 */
export const MANTINE_PATCHES: Patch[] = [
  {
    file: /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-id[\\/]use-id\.mjs$/,
    why: "useId keeps React's id",
    apply: (code) =>
      /setUuid\(randomId\(\)\)/.test(code) && /as useId\s*\}/.test(code) ? STABLE_USE_ID : null,
  },
  {
    file: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]use-resizing[\\/]use-resizing\.mjs$/,
    why: 'AppShell starts settled',
    apply: (code) => {
      const state = 'const [resizing, setResizing] = useState(true);';
      const effect = /useIsomorphicEffect\(\(\) => \{\s*setResizing\(true\);/;
      if (!code.includes(state) || !effect.test(code) || !code.includes('useRef')) return null;
      return code
        .replace(
          state,
          'const [resizing, setResizing] = useState(false);\n\tconst mountedRef = useRef(false);',
        )
        .replace(
          effect,
          'useIsomorphicEffect(() => {\n\t\tif (!mountedRef.current) { mountedRef.current = true; return; }\n\t\tsetResizing(true);',
        );
    },
  },
  {
    file: /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-media-query[\\/]use-media-query\.mjs$/,
    why: 'useMediaQuery starts from the media query',
    apply: (code) => {
      const defaults = '{ getInitialValueInEffect } = { getInitialValueInEffect: true }';
      const state = 'useState(getInitialValueInEffect ? initialValue : getInitialValue(query))';
      if (!code.includes(defaults) || !code.includes(state)) return null;
      return code
        .replace(defaults, '{ getInitialValueInEffect } = { getInitialValueInEffect: false }')
        .replace(state, 'useState(() => (getInitialValueInEffect ? initialValue : getInitialValue(query)))');
    },
  },
];

export function mantinePatches(patches: Patch[] = MANTINE_PATCHES): Plugin {
  return {
    name: 'flywheel-mantine-patches',
    apply: 'build',
    transform(code, id) {
      const file = id.split('?')[0]!;
      const patch = patches.find((p) => p.file.test(file));
      if (!patch) return null;
      const out = patch.apply(code);
      if (out === null) {
        this.error(`${file} changed (${patch.why}): review MANTINE_PATCHES in scripts/vite-plugins.ts`);
      }
      return { code: out, map: null };
    },
  };
}

/**
 * The page's Latin font is asked for with the HTML: without this the browser finds it only when the first text
 * is laid out, after the app has rendered, and the text is drawn again when it arrives.
 */
export function preloadFont(): Plugin {
  return {
    name: 'flywheel-preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((f) => /inter-latin-wght-normal-.*\.woff2$/.test(f));
        if (!font) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * A tiny classic script, first in the page, that asks for a signed-in cold load's code while the entry chunk is
 * still being run (~250 ms on a small machine): the frame's and the page's chunks as modulepreload links; and
 * its first data: the calls app/warm-start.ts makes for the frame and the page (`firstCalls`, kept in
 * src/app/first-calls.json by its test), with the session's workspace and user in place of the placeholders
 * (src/lib/early-requests.ts, where the app takes their answers). Signed out it does nothing.
 * Inline, so it runs as soon as the page's first bytes are in (a file of its own waited ~100-200 ms for one of the
 * browser's six connections, behind the entry's code): the server allows it by its hash in the
 * Content-Security-Policy (apps/server/src/plugins/security-headers.ts), and no other inline script.
 */
export function bootPreload(
  sessionKey: string,
  firstCalls: { frame: unknown[]; pages: Record<string, unknown[]> },
  placeholders: { team: string; user: string },
  apiBase: string,
): Plugin {
  let root = '';
  return {
    name: 'flywheel-boot-preload',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      const chunks = Object.values(bundle).flatMap((o) => (o.type === 'chunk' ? [o] : []));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const stack = [...start];
        while (stack.length) {
          const file = stack.pop()!;
          if (seen.has(file)) continue;
          seen.add(file);
          stack.push(...(byFile.get(file)?.imports ?? []));
        }
        return seen;
      };
      const entry = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
      const filesOf = (modules: string[]) =>
        modules.map((m) => {
          const chunk = chunks.find((c) => c.facadeModuleId === path.join(root, m));
          if (!chunk) this.error(`boot preload: no chunk for ${m}`);
          return chunk.fileName;
        });
      // Each page's chunks, and the stylesheets they import: asked for now, these are in the page when the
      // app's code imports the chunks (Vite's loader would otherwise add each stylesheet then, and wait for it).
      const pages = Object.fromEntries(
        Object.entries(MAIN_PAGES).map(([page, modules]) => {
          const files = [...closure(filesOf([FRAME, ...modules]))].filter((f) => !entry.has(f)).sort();
          const css = new Set(files.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]));
          return [page, { js: files, css: [...css].sort() }];
        }),
      );
      // Data in the script, with no raw `<` (a `</script>` in it would end the element).
      const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
      const source = `(function () {
  try {
    var s = JSON.parse(localStorage.getItem(${JSON.stringify(sessionKey)}) || 'null');
    if (!s || !s.token || !(Date.parse(s.expiration) > Date.now())) return;
    var p = location.pathname === '/' ? '/dashboard/home' : location.pathname;
    var m = /^\\/dashboard\\/([a-z]+)/.exec(p);
    if (!m) return;
    var own = function (o, k) {
      return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : [];
    };
    var files = own(${json(pages)}, m[1]);
    var add = function (list, rel) {
      for (var i = 0; list && i < list.length; i++) {
        var l = document.createElement('link');
        l.rel = rel;
        if (rel === 'modulepreload') l.crossOrigin = '';
        l.href = '/' + list[i];
        document.head.appendChild(l);
      }
    };
    add(files.css, 'stylesheet');
    add(files.js, 'modulepreload');
    // The frame's first calls on any dashboard page, and the page's own on the page itself (a member's detail
    // is not the members list), for the session's workspace and user.
    var team = s.currentworkspace;
    var user = s.userid;
    var id = /^[A-Za-z0-9_-]{1,64}$/;
    if (typeof team !== 'string' || !id.test(team) || typeof user !== 'string' || !id.test(user)) return;
    var calls = ${json(firstCalls)};
    var todo = calls.frame.concat(/^\\/dashboard\\/[a-z]+\\/?$/.test(p) ? own(calls.pages, m[1]) : []);
    var fill = function (t) {
      return t.split(${JSON.stringify(placeholders.team)}).join(team).split(${JSON.stringify(placeholders.user)}).join(user);
    };
    var sent = (window.__flywheelEarly = []);
    for (var j = 0; j < todo.length; j++) {
      var r = todo[j];
      var path = fill(r.path);
      var body = r.body === undefined ? undefined : fill(r.body);
      var h = { accept: 'application/json', authorization: 'Bearer ' + s.token };
      if (body !== undefined) h['content-type'] = 'application/json';
      var f = fetch(${JSON.stringify(apiBase)} + path, { method: r.method, headers: h, body: body });
      f.catch(function () {});
      sent.push({ method: r.method, path: path, body: body, token: s.token, response: f });
    }
  } catch (e) {}
})();
`;
      const text = String(html.source);
      const at = text.indexOf('<script type="module"');
      if (at < 0) this.error('boot preload: index.html has no module script');
      // Nothing in the script may end the element or open a comment (the embedded data has no raw `<`).
      if (/<\/script|<!--/i.test(source)) this.error('boot preload: the script would end its element early');
      html.source = `${text.slice(0, at)}<script>${source}</script>\n    ${text.slice(at)}`;
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One owning module per table (docs/ARCHITECTURE.md, "Tables and their owners"). Every table is declared by one
 * `pgTable('name', …)` in one module's `table.ts` (or `jobs/table.ts`); that module owns it. Any other code that
 * reads or writes the table in SQL does so through the owner's Drizzle table object (`${slackMembers}`), which the
 * pinned import list below makes visible, never by spelling the table's name in a string. Only the activity module
 * reads its rollups (the tables of `modules/activity/table.ts`): other modules ask its exported reads.
 */

const SRC = path.join(import.meta.dirname, '..');

/** (module, table) pairs that may name another module's table in SQL, each with its reason. Keep it short. */
const ALLOWED_NAMES: { module: string; table: string; reason: string }[] = [];

/**
 * Every cross-module import of a table object, as `importer module -> owner module.object`. A new read of another
 * module's table adds a line here, on purpose and in review.
 */
const CROSS_MODULE_TABLE_IMPORTS: Record<string, string[]> = {
  actions: ['workspace-data.memberEvents'],
  activity: [
    'tags.memberTags',
    'workspace-data.backfills',
    'workspace-data.channelMembers',
    'workspace-data.memberEvents',
    'workspace-data.slackChannels',
    'workspace-data.slackMembers',
    'workspaces.workspaceAdmins',
    'workspaces.workspaces',
  ],
  audience: [
    'tags.memberTags',
    'tags.tags',
    'workspace-data.channelMembers',
    'workspace-data.slackChannels',
    'workspace-data.slackMembers',
  ],
  'backup.ts': ['workspaces.workspaceAdmins', 'workspaces.workspaceSenders', 'workspaces.workspaces'],
  buckets: ['workspace-data.slackMembers'],
  conversations: [
    'workspace-data.slackChannels',
    'workspace-data.slackMembers',
    'workspace-data.slackMessages',
    'workspace-data.slackReactions',
    'workspaces.workspaceAdmins',
    'workspaces.workspaces',
  ],
  db: [
    'conversations.questionAnswers',
    'intake.slackInbox',
    'schema.*',
    'workspace-data.slackMembers',
    'workspace-data.slackReactions',
  ],
  delivery: [
    'workspace-data.channelMembers',
    'workspace-data.slackChannels',
    'workspace-data.slackMembers',
    'workspace-data.slackMessages',
  ],
  directory: ['workspace-data.slackChannels', 'workspace-data.slackMembers'],
  forms: ['delivery.deliveryRecipients', 'workspace-data.slackMembers', 'workspaces.workspaces'],
  lib: ['jobs.dueAttempts'],
  'member-detail': [
    'conversations.messagePins',
    'workspace-data.channelMembers',
    'workspace-data.slackChannels',
    'workspace-data.slackMembers',
    'workspace-data.slackMessages',
    'workspace-data.slackReactions',
  ],
  metrics: ['intake.slackInbox', 'workspace-data.backfills', 'workspaces.workspaces'],
  notifications: ['auth.users', 'workspaces.workspaceAdmins', 'workspaces.workspaces'],
  // The weekly digest: its recipients (an admin's account and Slack user), joins and receipts of a week.
  digest: [
    'auth.users',
    'delivery.deliveryReceipts',
    'workspace-data.memberEvents',
    'workspace-data.slackMembers',
    'workspaces.workspaceAdmins',
    'workspaces.workspaces',
  ],
  polls: ['workspace-data.slackMembers', 'workspaces.workspaces'],
  tags: ['workspace-data.slackMembers'],
  webhooks: ['workspace-data.memberEvents'],
  workflows: [
    'buckets.buckets',
    'delivery.deliveryReceipts',
    'forms.formInstances',
    'forms.forms',
    'tags.tags',
    'workspace-data.slackMembers',
  ],
  workspaces: ['auth.users', 'workspace-data.slackMembers'],
};

type Source = { rel: string; text: string };
type TableOwner = { table: string; module: string; object: string };
type Violation = { file: string; table: string; owner: string; why: string };

/** The module a source file belongs to: `modules/<name>/…` and `jobs/…`, else its first path segment (lib, db, backup.ts). */
function moduleOf(rel: string): string {
  const parts = rel.split('/');
  return parts[0] === 'modules' && parts.length > 2 ? parts[1]! : parts[0]!;
}

const parsed = new WeakMap<Source, ts.SourceFile>();
const parse = (s: Source) => {
  let file = parsed.get(s);
  if (!file)
    parsed.set(
      s,
      (file = ts.createSourceFile(s.rel, s.text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)),
    );
  return file;
};

const isTableFile = (rel: string) => /^(modules\/[^/]+|jobs)\/table\.ts$/.test(rel);

/** The owner of every table, from the `pgTable('name', …)` calls of the table files. */
function tableOwners(sources: Source[]): Map<string, TableOwner> {
  const owners = new Map<string, TableOwner>();
  for (const s of sources.filter((x) => isTableFile(x.rel))) {
    const visit = (node: ts.Node) => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        ts.isCallExpression(node.initializer) &&
        ts.isIdentifier(node.initializer.expression) &&
        node.initializer.expression.text === 'pgTable'
      ) {
        const first = node.initializer.arguments[0];
        if (!first || !ts.isStringLiteralLike(first))
          throw new Error(`${s.rel}: pgTable without a literal name`);
        const table = first.text;
        const previous = owners.get(table);
        if (previous) throw new Error(`${table} is declared by ${previous.module} and ${moduleOf(s.rel)}`);
        owners.set(table, { table, module: moduleOf(s.rel), object: node.name.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(s));
  }
  return owners;
}

/** The text of every string literal and template literal in a file (a template's parts joined around `${…}`); never comments. */
function stringTexts(s: Source): string[] {
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      texts.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ${…} '));
      for (const span of node.templateSpans) visit(span.expression);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(s));
  return texts;
}

const IDENT = '"?[a-z_][a-z0-9_$]*"?';
/** A table after from / join / into / update / table (so also delete from, exists (select … from), truncate table), optionally quoted and schema-qualified. */
const TABLE_AFTER_KEYWORD = new RegExp(
  `\\b(?:from|join|into|update|table)\\s+(?:only\\s+)?((?:${IDENT}\\s*\\.\\s*)?${IDENT})`,
  'gi',
);
/** A column qualified by a table's own name (`slack_members.user_id`), in text that is SQL. */
const QUALIFIED_COLUMN = new RegExp(`(?<![\\w".])(${IDENT})\\s*\\.\\s*"?[a-z_]`, 'gi');
const LOOKS_LIKE_SQL = /\b(select|insert|update|delete)\b/i;
/** A string that is a snake_case name alone (a list of table names fed to sql.raw); a bare word like 'tags' is more often something else. */
const SNAKE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;

const unquote = (name: string) => name.replaceAll('"', '').toLowerCase();

/** The tables a piece of SQL text names. */
function tablesNamed(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(TABLE_AFTER_KEYWORD)) found.add(unquote(m[1]!.split('.').at(-1)!));
  if (LOOKS_LIKE_SQL.test(text)) for (const m of text.matchAll(QUALIFIED_COLUMN)) found.add(unquote(m[1]!));
  if (SNAKE_NAME.test(text.trim())) found.add(text.trim());
  return [...found];
}

/** Every named import (or re-export) of a table object, and a namespace import of a table file, per file. */
function tableImports(s: Source, owners: Map<string, TableOwner>): { owner: string; object: string }[] {
  // db/schema.ts re-exports every table file for the typed client and drizzle-kit: it reads none.
  if (s.rel === 'db/schema.ts') return [];
  const byObject = new Map([...owners.values()].map((o) => [o.object, o]));
  const found: { owner: string; object: string }[] = [];
  for (const statement of parse(s).statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier =
      statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (!specifier?.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(s.rel), specifier));
    const fileOwner = isTableFile(target)
      ? moduleOf(target)
      : target === 'db/schema.ts'
        ? 'schema'
        : undefined;
    if (!fileOwner) continue;
    const names: string[] = [];
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) found.push({ owner: fileOwner, object: '*' });
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
    } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const e of statement.exportClause.elements) names.push((e.propertyName ?? e.name).text);
    } else found.push({ owner: fileOwner, object: '*' });
    for (const name of names) {
      const o = byObject.get(name);
      if (o) found.push({ owner: o.module, object: o.object });
    }
  }
  return found;
}

const ROLLUP_OWNER = 'activity';

/** What breaks the rule in the given sources. */
function violations(
  sources: Source[],
  owners: Map<string, TableOwner>,
  allowed = ALLOWED_NAMES,
): Violation[] {
  const out: Violation[] = [];
  for (const s of sources) {
    const mod = moduleOf(s.rel);
    const named = new Set(stringTexts(s).flatMap(tablesNamed));
    for (const table of [...named].sort()) {
      const owner = owners.get(table);
      if (!owner || owner.module === mod) continue;
      if (owner.module === ROLLUP_OWNER)
        out.push({
          file: s.rel,
          table,
          owner: owner.module,
          why: 'only the activity module reads its rollups',
        });
      else if (!allowed.some((a) => a.module === mod && a.table === table))
        out.push({
          file: s.rel,
          table,
          owner: owner.module,
          why: `named in SQL; use ${owner.object} from its table.ts`,
        });
    }
    if (mod === ROLLUP_OWNER) continue;
    for (const i of tableImports(s, owners))
      if (i.owner === ROLLUP_OWNER || (i.owner === 'schema' && i.object === '*' && mod !== 'db'))
        out.push({
          file: s.rel,
          table: i.object,
          owner: i.owner,
          why: 'only the activity module reads its rollups',
        });
  }
  return out;
}

/** The cross-module table-object imports, `importer -> [owner.object]`, sorted. */
function crossModuleImports(sources: Source[], owners: Map<string, TableOwner>): Record<string, string[]> {
  const map = new Map<string, Set<string>>();
  for (const s of sources) {
    const mod = moduleOf(s.rel);
    for (const i of tableImports(s, owners)) {
      if (i.owner === mod) continue;
      const set = map.get(mod) ?? new Set<string>();
      set.add(`${i.owner}.${i.object}`);
      map.set(mod, set);
    }
  }
  return Object.fromEntries([...map.keys()].sort().map((k) => [k, [...map.get(k)!].sort()]));
}

/** The product sources: every non-test .ts file under src/, without the migrations and testing/. */
function productSources(): Source[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((rel) => rel.endsWith('.ts') && !rel.endsWith('.test.ts'))
    .filter((rel) => !rel.startsWith('db/migrations/') && !rel.startsWith('testing/'))
    .sort()
    .map((rel) => ({ rel, text: fs.readFileSync(path.join(SRC, rel), 'utf8') }));
}

describe('table owners', () => {
  const sources = productSources();
  const owners = tableOwners(sources);

  it('finds every table file and its tables', () => {
    expect(owners.get('slack_members')).toEqual({
      table: 'slack_members',
      module: 'workspace-data',
      object: 'slackMembers',
    });
    expect(owners.get('due_attempts')?.module).toBe('jobs');
    expect(owners.get('activity_member_daily')?.module).toBe('activity');
    expect(new Set([...owners.values()].map((o) => o.module)).size).toBe(
      sources.filter((s) => isTableFile(s.rel)).length,
    );
  });

  it('no module names another module’s table in SQL (outside the allow-list); only activity reads its rollups', () => {
    expect(violations(sources, owners)).toEqual([]);
  });

  it('every allow-list entry is still needed', () => {
    const unused = ALLOWED_NAMES.filter(
      (a) =>
        !violations(sources, owners, []).some((v) => moduleOf(v.file) === a.module && v.table === a.table),
    );
    expect(unused).toEqual([]);
  });

  it('the cross-module table-object imports are exactly the pinned ones', () => {
    expect(crossModuleImports(sources, owners)).toEqual(CROSS_MODULE_TABLE_IMPORTS);
  });

  it('the checker fails on planted sources', () => {
    const planted: Source[] = [
      {
        rel: 'modules/polls/planted.ts',
        text: [
          "import { sql } from 'drizzle-orm';",
          '// a comment naming slack_channels (from slack_channels) is not SQL',
          'export const q = (id: string) => sql`select m.user_id from public."slack_members" m',
          '  join polls p on p.team_id = m.team_id where exists (select 1 from member_tags t where t.user_id = ${id})`;',
          "export const r = 'delete from tags where id = $1';",
          'export const s = sql`select slack_messages.ts from ${messages}`;',
          "export const BUSY = ['poll_votes', 'conversation_pins'];",
        ].join('\n'),
      },
      {
        rel: 'modules/workflows/planted.ts',
        text: [
          "import { activityMemberDaily } from '../activity/table.ts';",
          "import { sql } from 'drizzle-orm';",
          'export const q = sql`select sum(messages) from activity_member_daily where day >= ${activityMemberDaily.day}`;',
        ].join('\n'),
      },
      {
        rel: 'backup.ts',
        text: "export const q = 'select count(*) from keyword_daily';",
      },
    ];
    expect(violations(planted, owners).map((v) => `${v.file} ${v.table} ${v.owner}`)).toEqual([
      'modules/polls/planted.ts conversation_pins conversations',
      'modules/polls/planted.ts member_tags tags',
      'modules/polls/planted.ts slack_members workspace-data',
      'modules/polls/planted.ts slack_messages workspace-data',
      'modules/polls/planted.ts tags tags',
      'modules/workflows/planted.ts activity_member_daily activity',
      'modules/workflows/planted.ts activityMemberDaily activity',
      'backup.ts keyword_daily activity',
    ]);
    // An allowed pair passes; a rollup is never allowed.
    const allowed = [
      { module: 'polls', table: 'tags', reason: 'planted' },
      { module: 'backup.ts', table: 'keyword_daily', reason: 'planted' },
    ];
    expect(violations(planted.slice(2), owners, allowed).map((v) => v.table)).toEqual(['keyword_daily']);
    expect(violations(planted.slice(0, 1), owners, allowed).map((v) => v.table)).not.toContain('tags');
    // Table objects, a module's own tables and comments pass; the import of a foreign table object is pinned.
    const clean: Source = {
      rel: 'modules/polls/clean.ts',
      text: [
        "import { slackMembers } from '../workspace-data/table.ts';",
        '// select * from slack_members',
        'const q = sql`select 1 from ${slackMembers} m join poll_votes v on v.member_id = m.member_id`;',
      ].join('\n'),
    };
    expect(violations([clean], owners)).toEqual([]);
    expect(crossModuleImports([clean], owners)).toEqual({ polls: ['workspace-data.slackMembers'] });
  });
});

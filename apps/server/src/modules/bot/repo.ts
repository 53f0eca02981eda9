import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedResult } from '../../db/sql.ts';

export type BotRow = { bot_name: string; use_custom: boolean; workspace_icon: string | null };

/** bot_settings: one row per workspace once its bot was customised or its icon looked up. */
export const botRepo = (db: Db) => ({
  async find(teamId: string): Promise<BotRow | undefined> {
    const r = await typedResult<BotRow>(
      db,
      sql`select bot_name, use_custom, workspace_icon from bot_settings where team_id = ${teamId}`,
    );
    return r.rows[0];
  },
  async save(teamId: string, botName: string, useCustom: boolean) {
    await db.execute(sql`insert into bot_settings (team_id, bot_name, use_custom) values (${teamId}, ${botName}, ${useCustom})
      on conflict (team_id) do update set bot_name = excluded.bot_name, use_custom = excluded.use_custom, updated_at = now()`);
  },
  /** Remembers the workspace icon; a workspace without settings gets the defaults with it. */
  async saveIcon(teamId: string, icon: string, defaults: { botName: string; useCustom: boolean }) {
    await db.execute(sql`insert into bot_settings (team_id, bot_name, use_custom, workspace_icon)
      values (${teamId}, ${defaults.botName}, ${defaults.useCustom}, ${icon})
      on conflict (team_id) do update set workspace_icon = excluded.workspace_icon, updated_at = now()`);
  },
});

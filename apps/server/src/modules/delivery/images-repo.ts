import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { textArray, typedRows } from '../../db/sql.ts';

/** Images uploaded for a workspace's sends (uploads.ts), and which of a send's images are known. */
export const imagesRepo = (db: Db) => ({
  async save(row: {
    fileId: string;
    teamId: string;
    name: string;
    url: string;
    bytes: number;
    createdBy: string | null;
  }) {
    await db.execute(sql`insert into delivery_images (file_id, team_id, name, url, bytes, created_by)
      values (${row.fileId}, ${row.teamId}, ${row.name}, ${row.url}, ${row.bytes}, ${row.createdBy})
      on conflict (file_id) do nothing`);
  },
  /** The ids among these that were uploaded for this workspace. */
  async known(teamId: string, fileIds: string[]): Promise<Set<string>> {
    if (!fileIds.length) return new Set();
    const rows = await typedRows<{ file_id: string }>(
      db,
      sql`select file_id from delivery_images where team_id = ${teamId}
        and file_id = any(${textArray(fileIds)}::text[])`,
    );
    return new Set(rows.map((r) => r.file_id));
  },
});

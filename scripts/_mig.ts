import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
const d = await openDatabase({ kind: 'postgres', url: 'postgres://root@127.0.0.1:5432/lead_bench', readUrl: null, poolMax: 2 });
await migrate(d); await d.close();

/** Reading PostgreSQL's `EXPLAIN (ANALYZE, FORMAT JSON)` plans: how many rows a statement's scans looked at. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

const SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Index Scan', 'Bitmap Heap Scan', 'Tid Scan']);

/** Every node of a plan tree, flattened. */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/**
 * Rows the plan's scans of tables and indexes (those `which` keeps) looked at, returned or filtered
 * out, in every loop. A bitmap heap scan visits the rows its bitmap index scans counted: only rows a
 * lossy bitmap brought in besides (removed on recheck) count again.
 */
export const rowsExamined = (plan: PlanNode, which: (node: PlanNode) => boolean = () => true) =>
  planNodes(plan)
    .filter((n) => SCANS.has(n['Node Type']) && which(n))
    .reduce((sum, n) => {
      const looked =
        n['Node Type'] === 'Bitmap Heap Scan'
          ? (n['Rows Removed by Index Recheck'] ?? 0)
          : n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0);
      return sum + looked * n['Actual Loops'];
    }, 0);

/** The scans of a plan in one line, for an assertion's message. */
export const describePlan = (plan: PlanNode): string =>
  planNodes(plan)
    .filter((n) => SCANS.has(n['Node Type']))
    .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}: ${n['Actual Rows']}×${n['Actual Loops']} (+${n['Rows Removed by Filter'] ?? 0} filtered)`)
    .join('; ');

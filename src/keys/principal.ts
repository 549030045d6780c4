import type { ResolvedContext } from '../context.js';
/** Who is calling an authenticated route, and so which projects they may see. */
export type Principal =
  | {
      kind: 'api_key';
      keyId: string;
      context: ResolvedContext;
      scope: 'all' | 'selected';
    }
  /** A user vouched for by the trusted gateway through X-Identity-User-Id: personal projects only. */
  | { kind: 'identity'; userId: string };

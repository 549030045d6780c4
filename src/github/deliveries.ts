import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import type { ReposService } from '../repos/repos.service.js';
import type { GitHubClient } from './github.client.js';
import { githubRepository } from './github.repository.js';
import type { PrCheckService } from './pr-check.service.js';
import type { PublishingService } from './publishing.service.js';
import { isWellFormedSignature, signatureCheck, type SignatureCheck } from './signature.js';

export interface WebhookHeaders {
  event: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
}

export interface WebhookInput {
  event: string | undefined;
  deliveryId: string | undefined;
  /** The body exactly as received. */
  rawBody: Buffer;
  /** Whether X-Hub-Signature-256 covers rawBody (checked as the body streamed in, see webhookPreflight). */
  signatureValid: boolean;
  contentType: string | undefined;
}

export interface WebhookResult {
  duplicate: boolean;
  event: string;
  outcome: string;
}

/**
 * How long a webhook body's digest is kept to refuse it under another X-GitHub-Delivery. GitHub's own
 * redeliveries keep their delivery id (and may be asked for up to 3 days later); older replays of
 * installation events are also checked against GitHub itself.
 */
export const PAYLOAD_DIGEST_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The installation actions GitHub sends with the `installation` event. */
const INSTALLATION_ACTIONS = new Set(['created', 'deleted', 'suspend', 'unsuspend', 'new_permissions_accepted']);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Why the payload cannot be the event X-GitHub-Event names (that header is not signed, the body is),
 * or null. Only the events acted upon are checked.
 */
function eventShapeProblem(event: string, payload: Record<string, unknown>): string | null {
  if (event === 'push') {
    if (typeof payload.ref !== 'string' || !isObject(payload.repository) || 'action' in payload) return 'a push payload has a ref and a repository, and no action';
  }
  if (event === 'installation') {
    const installation = payload.installation;
    if (typeof payload.action !== 'string' || !INSTALLATION_ACTIONS.has(payload.action) || !isObject(installation) || typeof installation.id !== 'number' || 'ref' in payload) {
      return 'an installation payload has an installation action and an installation';
    }
  }
  if (event === 'pull_request') {
    const pr = payload.pull_request;
    if (typeof payload.action !== 'string' || !isObject(pr) || typeof pr.number !== 'number' || !isObject(payload.repository) || 'ref' in payload) {
      return 'a pull_request payload has an action, a pull request and a repository';
    }
  }
  return null;
}

/**
 * The GitHub service's handling of webhook deliveries (POST /webhooks/github): refused on the
 * headers before the body is read, the signature checked over the raw bytes before anything is
 * parsed, each delivery and each body handled once, and the work itself queued through the repos service.
 */
export function createDeliveryHandling(deps: {
  db: Db;
  config: Config;
  repos: ReposService;
  requireGitHub: () => GitHubClient;
  /** Pull-request checks: a `pull_request` delivery queues them (never runs them in the request). */
  prChecks?: Pick<PrCheckService, 'queueFromWebhook'>;
  /** GitHub Releases: what a missing permission stopped is queued again once new permissions are accepted. */
  publishing?: Pick<PublishingService, 'permissionsChanged'>;
}) {
  const { db, config, repos } = deps;

  /** Whether GitHub's current view of the installation agrees with the action a delivery reports. */
  async function githubConfirms(installationId: number, action: 'deleted' | 'suspend' | 'unsuspend'): Promise<boolean> {
    const remote = await deps.requireGitHub().getInstallation(installationId);
    if (action === 'deleted') return remote === null;
    return remote !== null && (action === 'suspend') === (remote.suspendedAt !== null);
  }

  const handling = {
    /**
     * What can be refused from the headers alone, before a byte of the body is read: webhooks not
     * configured (503), no well-formed signature (401), no event or delivery id (400). Returns the
     * signature check to feed the body through as it streams in.
     */
    webhookPreflight(headers: WebhookHeaders): SignatureCheck {
      const secret = config.github.webhookSecret;
      if (!secret) throw new AppError('unavailable', 'GitHub webhooks are not configured on this server: set GITHUB_WEBHOOK_SECRET');
      if (!isWellFormedSignature(headers.signature)) throw new AppError('unauthorized', 'Missing or invalid X-Hub-Signature-256');
      if (!headers.event || !headers.deliveryId) {
        throw new AppError('invalid_request', 'X-GitHub-Event and X-GitHub-Delivery are required');
      }
      return signatureCheck(secret, headers.signature);
    },

    /**
     * Handles one GitHub webhook delivery: the signature is checked over the raw bytes before
     * anything is parsed, a delivery is handled once, and the work itself is queued.
     */
    async handleWebhook(input: WebhookInput): Promise<WebhookResult> {
      if (!config.github.webhookSecret) throw new AppError('unavailable', 'GitHub webhooks are not configured on this server: set GITHUB_WEBHOOK_SECRET');
      if (!input.signatureValid) throw new AppError('unauthorized', 'Missing or invalid X-Hub-Signature-256');
      if (!input.event || !input.deliveryId) {
        throw new AppError('invalid_request', 'X-GitHub-Event and X-GitHub-Delivery are required');
      }
      if (await githubRepository.deliverySeen(db, input.deliveryId)) {
        return { duplicate: true, event: input.event, outcome: 'already handled' };
      }
      const payloadText = input.rawBody.toString('utf8');
      let payload: Record<string, unknown>;
      try {
        const json = input.contentType?.startsWith('application/x-www-form-urlencoded')
          ? (new URLSearchParams(payloadText).get('payload') ?? '')
          : payloadText;
        payload = JSON.parse(json) as Record<string, unknown>;
        if (payload === null || typeof payload !== 'object') throw new Error('not an object');
      } catch {
        throw new AppError('invalid_request', 'The webhook body is not a JSON object');
      }
      const shapeProblem = eventShapeProblem(input.event, payload);
      if (shapeProblem) {
        throw new AppError('invalid_request', `The payload does not match X-GitHub-Event "${input.event}": ${shapeProblem}`, [
          { in: 'headers', parameter: 'x-github-event', message: shapeProblem },
        ]);
      }
      // Only the body is signed: the same bytes under a new X-GitHub-Delivery are a replay. The digest
      // stays with the delivery that first brought it, so that delivery's own retry still goes through.
      const digest = createHash('sha256').update(input.rawBody).digest('hex');
      if ((await githubRepository.claimPayloadDigest(db, digest, input.deliveryId)) !== input.deliveryId) {
        throw new AppError('conflict', 'This payload was already delivered under another X-GitHub-Delivery: replays are refused');
      }
      await githubRepository.prunePayloadDigests(db, new Date(Date.now() - PAYLOAD_DIGEST_TTL_MS));

      const outcome = await handling.applyEvent(input.event, payload);
      // Recorded after the work is queued: a crash in between means GitHub's redelivery queues it
      // again, which is harmless (ingestion is idempotent), rather than losing the push.
      const fresh = await githubRepository.recordDelivery(db, {
        deliveryId: input.deliveryId,
        event: input.event,
        action: typeof payload.action === 'string' ? payload.action : null,
        outcome,
      });
      return { duplicate: !fresh, event: input.event, outcome };
    },

    async applyEvent(event: string, payload: Record<string, unknown>): Promise<string> {
      const installationId = Number((payload.installation as { id?: unknown } | undefined)?.id);
      if (event === 'push') {
        const ref = typeof payload.ref === 'string' ? payload.ref : '';
        const repository = payload.repository as { name?: string; owner?: { login?: string; name?: string } } | undefined;
        const owner = repository?.owner?.login ?? repository?.owner?.name;
        if (!ref.startsWith('refs/heads/') || !owner || !repository?.name || !Number.isSafeInteger(installationId)) {
          return 'ignored: not a branch push of an installation';
        }
        // The branch was deleted: keep what is stored; fetching it would only fail and retry.
        if (payload.deleted === true) return 'ignored: branch deleted';
        // Only an active installation's links follow its pushes.
        const installation = await githubRepository.findInstallationByScmId(db, installationId);
        const queued = installation?.status === 'active'
          ? await repos.queuePush(installation.id, owner, repository.name, ref.slice('refs/heads/'.length))
          : 0;
        return queued ? `queued ingest of ${queued} link(s)` : 'ignored: no link tracks this branch';
      }
      if (event === 'pull_request' && Number.isSafeInteger(installationId)) {
        return deps.prChecks ? deps.prChecks.queueFromWebhook(installationId, payload) : 'ignored: pull_request';
      }
      if (event === 'installation' && Number.isSafeInteger(installationId)) {
        const action = String(payload.action);
        const installation = await githubRepository.findInstallationByScmId(db, installationId);
        if (!installation) return 'ignored: unknown installation';
        if ((action === 'deleted' || action === 'suspend' || action === 'unsuspend') && !(await githubConfirms(installationId, action))) {
          // A replay older than the digests kept, or a delivery overtaken by a later change.
          return `ignored: GitHub does not confirm installation ${action}`;
        }
        if (action === 'deleted' || action === 'suspend') {
          await db.transaction().execute(async (tx) => {
            await githubRepository.updateInstallation(tx, installation.id, { status: action === 'deleted' ? 'deleted' : 'suspended' });
            await repos.suspendInstallationLinks(installation.id, tx);
          });
          return `installation ${action === 'deleted' ? 'deleted' : 'suspended'}: ingest stopped`;
        }
        if (action === 'unsuspend') {
          await githubRepository.updateInstallation(db, installation.id, { status: 'active' });
          await repos.resumeInstallationLinks(installation.id);
          return 'installation unsuspended: ingest resumed';
        }
        if (action === 'new_permissions_accepted' && installation.status === 'active' && deps.publishing) {
          const { releases, changelogs } = await deps.publishing.permissionsChanged(installation.id);
          const pulls = changelogs ? ` and ${changelogs} CHANGELOG.md pull request(s)` : '';
          return `installation permissions changed: ${releases} release note(s)${pulls} queued for GitHub again`;
        }
        return `ignored: installation ${action}`;
      }
      return `ignored: ${event}`;
    },
  };
  return handling;
}

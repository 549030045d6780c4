import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, Uuid } from '../http/schemas.js';
import { principalOf } from '../http/route-policy.js';
import { OWNER_PATTERN, REPO_NAME_PATTERN } from '../repos/names.js';
import { presentLink, RepoLink } from '../repos/repo-link.schemas.js';
import { contextTenant } from '../http/plugins/rate-limit.js';
import { ownerOf, SETUP_ACTIONS, type GitHubService } from './github.service.js';

const LinkBody = Type.Object(
  {
    scmInstallationId: Type.String({
      ...Uuid,
      description: 'Our id of the GitHub installation (`installationId` of GET /v1/scm/callback).',
    }),
    repoOwner: Type.String({ pattern: OWNER_PATTERN, description: 'GitHub account: letters, digits, single hyphens, ≤ 39.' }),
    repoName: Type.String({ pattern: REPO_NAME_PATTERN, description: 'Letters, digits, `.`, `_`, `-`; ≤ 100; not `.` or `..`.' }),
    trackedBranch: Type.String({
      default: 'main',
      minLength: 1,
      maxLength: 255,
      description: 'A valid git branch name (the rules of `git check-ref-format --branch`).',
    }),
    releaseBranches: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 10,
        description:
          'Branch patterns whose tags make release notes too (`*.x`, `release/*`): letters, digits, `.`, `_`, `-`, `+`, `/` and at most one `*`; ' +
          'linking the same repository and branch again with other patterns replaces them. Default: none.',
      }),
    ),
  },
  { additionalProperties: false },
);

const CallbackQuery = Type.Object({
  installation_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "GitHub's installation id." }),
  setup_action: Type.Union(
    SETUP_ACTIONS.map((a) => Type.Literal(a)),
    { default: 'install', description: 'As GitHub sends it: install, update or request (awaiting approval).' },
  ),
  code: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'The user authorization code GitHub adds when the app requests user authorization (OAuth) during ' +
        'installation: proof that the installing GitHub user has access to the installation. Single use.',
    }),
  ),
  state: Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'Echoed by GitHub from the install URL; accepted and not interpreted here (it is the integrator\'s own CSRF value to check).',
    }),
  ),
});

const CallbackResponse = Type.Object({
  installationId: Uuid,
  scmInstallationId: Type.Integer(),
  accountLogin: Type.String(),
  accountType: Type.String({ description: 'User or Organization, as GitHub reports it.' }),
  setupAction: Type.String(),
  redirectUrl: Type.String({ description: 'Dashboard page to send the user to (built from PUBLIC_URL).' }),
});

const CallbackPending = Type.Object({
  recorded: Type.Literal(false),
  scmInstallationId: Type.Integer(),
  setupAction: Type.Literal('request'),
  message: Type.String(),
  redirectUrl: Type.String(),
});

/**
 * Largest body of POST /v1/projects/{id}/repos: four short fields fit in well under a kilobyte, and an
 * authenticated caller's megabyte of unknown keys would still cost Ajv (allErrors) a long validation.
 */
const LINK_BODY_LIMIT = 16 * 1024;

/**
 * These routes take an API key as `Authorization: Bearer` only (not X-API-KEY, not a gateway identity):
 * their security requirement names bearerAuth alone and they declare no identity header, so the
 * authentication that runs before their bodies are read (http/route-policy.ts) accepts nothing else.
 */
export const githubRoutes: FastifyPluginAsyncTypebox<{ services: { github: GitHubService } }> = async (app, { services }) => {
  app.addSchema(RepoLink);

  app.get(
    '/v1/scm/callback',
    {
      schema: {
        summary: 'Record a GitHub App installation (the app\'s setup URL lands here)',
        description:
          'Records the installation for the API key\'s context once the caller proves it may: GitHub knows anyone\'s ' +
          'installation ids and the setup URL can be forged, so the id alone proves nothing. Proof is one of: `code` ' +
          '(the app requests user authorization during installation; the code is exchanged for a user token and ' +
          '`GET /user/installations` must list the installation); the context\'s GitHub account verified once in the ' +
          'dashboard (Settings → GitHub), when the installation is on that account or an organization it administers; ' +
          'or the installation\'s account listed in `GITHUB_TRUSTED_ACCOUNTS` (self-hosting). One record per GitHub ' +
          'installation; calling again (e.g. `setup_action=update`) updates it and returns the same `installationId`. ' +
          'The account login and type come from GitHub, never from the query. `setup_action=request` (an ' +
          'organization owner has yet to approve) records nothing and answers 202. ' +
          'Errors: 400 bad parameters; 401 missing or invalid key (Bearer only; X-API-KEY is not accepted here); ' +
          '403 the key is limited to selected projects, or no proof (the same answer whether or not the installation ' +
          'exists), or GitHub refused the code; 409 the installation is recorded for another context; ' +
          '429 too many calls for the key\'s context (`RATE_LIMIT_TENANT_ACTIONS_MAX`, all its keys together; `Retry-After`); ' +
          '502 GitHub unreachable, erroring or over `GITHUB_TIMEOUT_MS`; 503 the GitHub App (or, with `code`, its OAuth client) is not configured.',
        tags: ['scm'],
        security: [{ bearerAuth: [] }],
        querystring: CallbackQuery,
        response: {
          200: CallbackResponse,
          202: CallbackPending,
          ...errorResponses(400, 401, 403, 409, 429, 500, 502, 503),
        },
      },
    },
    async (request, reply) => {
      // Each call asks GitHub with the app's credentials, whose rate limit every tenant shares.
      await app.limitTenantAction(request, reply, 'github', contextTenant(ownerOf(principalOf(request))));
      const result = await services.github.callback(principalOf(request), {
        installationId: request.query.installation_id,
        setupAction: request.query.setup_action,
        code: request.query.code,
      });
      reply.header('cache-control', 'no-store');
      if (!result.recorded || !result.installation) {
        return reply.status(202).send({
          recorded: false as const,
          scmInstallationId: result.scmInstallationId,
          setupAction: 'request' as const,
          message: 'The installation awaits approval by an owner of the GitHub account; nothing was recorded.',
          redirectUrl: result.redirectUrl,
        });
      }
      const installation = result.installation;
      return {
        installationId: installation.id,
        scmInstallationId: Number(installation.scm_installation_id),
        accountLogin: installation.account_login,
        accountType: installation.account_type,
        setupAction: installation.setup_action,
        redirectUrl: result.redirectUrl,
      };
    },
  );

  app.post(
    '/v1/projects/:projectId/repos',
    {
      schema: {
        summary: 'Link a GitHub repository to a project',
        description:
          'The key must see the project and own the installation (same context); otherwise 404, revealing ' +
          'nothing. The installation must be able to reach the repository (`GET /repos/{owner}/{repo}` with an ' +
          'installation token); otherwise 422. Linking the same repository and branch again returns the existing ' +
          'link (200, same id). A new link queues the backfill of the tracked branch (status `pending`). ' +
          'The key is checked before the body is read. Errors: 400 bad body (unknown fields, names, branch; at most 20 ' +
          '`details`); 401 missing or invalid key (Bearer only); 404 project or installation not found; 413 body over ' +
          '16 KiB; 422 repository unreachable, installation suspended, or no such branch (the message names the default branch); ' +
          '429 too many links for the project\'s owner (`RATE_LIMIT_TENANT_ACTIONS_MAX`, all its keys together; `Retry-After`); ' +
          '502 GitHub unreachable, erroring or over `GITHUB_TIMEOUT_MS`; 503 the GitHub App is not configured.',
        tags: ['scm'],
        security: [{ bearerAuth: [] }],
        params: Type.Object({ projectId: Uuid }),
        body: LinkBody,
        response: { 200: Type.Ref(RepoLink), ...errorResponses(400, 401, 404, 413, 422, 429, 500, 502, 503) },
      },
      bodyLimit: LINK_BODY_LIMIT,
    },
    async (request, reply) => {
      const { link } = await services.github.linkGitHubRepo(
        principalOf(request),
        request.params.projectId.toLowerCase(),
        {
          scmInstallationId: request.body.scmInstallationId.toLowerCase(),
          repoOwner: request.body.repoOwner,
          repoName: request.body.repoName,
          trackedBranch: request.body.trackedBranch,
          releaseBranches: request.body.releaseBranches,
        },
        // The project's owner pays, across all of its keys: a key per request would not get around it.
        (project) => app.limitTenantAction(request, reply, 'link', project),
      );
      reply.header('cache-control', 'no-store');
      return presentLink(link);
    },
  );
};

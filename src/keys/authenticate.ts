import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { UsersService } from '../auth/users.service.js';
import type { KeysService } from './keys.service.js';
import type { Principal } from '../context.js';
import { bearerToken } from '../http/bearer.js';
import type { AuthenticationOptions, Authenticator } from '../http/route-policy.js';
import { isUuid } from '../ids.js';


const unauthorized = (message: string) => new AppError('unauthorized', message);

function sameSecret(a: string, b: string): boolean {
  // Hashing first gives equal lengths, so the comparison time says nothing about the secret.
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Resolves the caller of an authenticated route. An API key comes as `Authorization: Bearer`
 * or, where `allowApiKeyHeader` is set, as `X-API-KEY`. Without a key, `X-Identity-User-Id` is
 * honoured only where the route allows it, the operator enabled it and the request carries the
 * gateway's shared secret in `X-Gateway-Secret`; otherwise the header is ignored. Every invalid key
 * gets the same answer, so a caller cannot tell an unknown key from a revoked one.
 */
export function createAuthenticator(deps: { keys: KeysService; users: Pick<UsersService, 'findById'>; config: Config }): Authenticator {
  const { enabled, gatewaySecret } = deps.config.identityHeader;

  return async function authenticate(request: FastifyRequest, options: AuthenticationOptions): Promise<Principal> {
    const authorization = single(request.headers.authorization);
    const apiKeyHeader = options.allowApiKeyHeader ? single(request.headers['x-api-key']) : undefined;
    let secret: string | undefined;
    if (authorization !== undefined) {
      secret = bearerToken(authorization);
      if (secret === undefined) throw unauthorized('The Authorization header must be "Bearer <API key>"');
    } else if (apiKeyHeader !== undefined) {
      secret = apiKeyHeader.trim();
    }

    if (secret !== undefined) {
      const principal = await deps.keys.authenticate(secret);
      if (!principal) throw unauthorized('Invalid API key');
      return principal;
    }

    const identity = single(request.headers['x-identity-user-id']);
    const presented = single(request.headers['x-gateway-secret']);
    if (options.allowIdentityHeader && enabled && gatewaySecret && identity !== undefined && presented !== undefined && sameSecret(presented, gatewaySecret)) {
      if (!isUuid(identity)) throw unauthorized('X-Identity-User-Id must be a user id (uuid)');
      const user = await deps.users.findById(identity.toLowerCase());
      if (!user) throw unauthorized('Unknown user in X-Identity-User-Id');
      return { kind: 'identity', userId: user.id };
    }

    throw unauthorized(
      options.allowApiKeyHeader
        ? 'Missing API key: send "Authorization: Bearer <API key>" or "X-API-KEY: <API key>"'
        : 'Missing API key: send "Authorization: Bearer <API key>"',
    );
  };
}

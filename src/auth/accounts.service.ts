import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import type { UserRow } from '../db/schema.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { usersRepository } from './users.repository.js';
import { sessionsRepository, setupTokensRepository, signInLimitsRepository, type LimitRule, type SessionUser } from './auth.repository.js';
import { hashPassword, passwordProblem, SCRYPT_LOG_N, verifyPassword } from './passwords.js';
import { createPasswordGate, type PasswordGateOptions } from './password-gate.js';
import { addressBucket } from '../http/client-address.js';

export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Password guessing limits, counted over a 15-minute window. Every attempt is reserved atomically
 * (a conditional upsert per counter, before scrypt runs) and given back when it succeeds, so parallel
 * guesses are counted exactly. Three counters, chosen so that none is a cheap way to lock a victim out:
 *
 * - per (account, address), `perPair`: a hard limit. It stops one address guessing one account, and
 *   binds only that address: the owner signing in from elsewhere is not affected.
 * - per account, `perAccount` failures from any address, then exponential backoff (1 s, 2 s, 4 s…,
 *   at most `accountBackoffCapSeconds` after the account's last attempt): slows guessing spread over
 *   many addresses without ever locking the account, and never binds an address's first attempt at
 *   the account in the window (the owner's first try always gets through; each extra guess costs an
 *   attacker a fresh address).
 * - per address, `perAddress` failures over all accounts (password spraying): a hard limit, except
 *   for accounts that signed in from this address within `knownPairSeconds`. Behind a proxy without
 *   TRUSTED_PROXIES every client shares one address; a sprayer there cannot lock out people who have
 *   signed in from it before.
 */
export const SIGN_IN_LIMITS = {
  windowSeconds: 15 * 60,
  perPair: 5,
  perAccount: 10,
  accountBackoffCapSeconds: 5 * 60,
  perAddress: 100,
  knownPairSeconds: 30 * 24 * 3600,
} as const;

const PAIR_RULE: LimitRule = { windowSeconds: SIGN_IN_LIMITS.windowSeconds, limit: SIGN_IN_LIMITS.perPair, backoffCapSeconds: null };
const ACCOUNT_RULE: LimitRule = {
  windowSeconds: SIGN_IN_LIMITS.windowSeconds,
  limit: SIGN_IN_LIMITS.perAccount,
  backoffCapSeconds: SIGN_IN_LIMITS.accountBackoffCapSeconds,
};
const ADDRESS_RULE: LimitRule = { windowSeconds: SIGN_IN_LIMITS.windowSeconds, limit: SIGN_IN_LIMITS.perAddress, backoffCapSeconds: null };

/** How long the setup link printed at start-up, and one made by `changelog users invite`, stay valid. */
export const SETUP_LINK_TTL_HOURS = { firstAccount: 24, user: 72 } as const;

/** The dashboard page behind a setup token (first account, or `changelog users invite`). */
export const setupUrl = (publicUrl: string, token: string) => `${publicUrl}/dashboard/setup/${token}`;

/** A session's last_seen_at is written at most this often. */
const TOUCH_SECONDS = 300;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface AccountsOptions {
  signupOpen: boolean;
  sessionTtlHours: number;
  /** scrypt cost of new hashes (log2 N); weaker stored hashes are replaced at the next sign-in. */
  passwordScryptLogN?: number;
  /** How many password hashes run at once, and how long one may wait its turn (password-gate.ts). */
  passwordHashing?: PasswordGateOptions;
  /** Organization invitations, which the orgs domain keeps: a sign-up through one joins its organization. */
  invitations: Invitations;
}

/** Organization invitations as signing up through one uses them (orgs/orgs.service.ts provides them). */
export interface Invitations {
  /** The invitation `token` names, when it can still be used; undefined otherwise. */
  findUsable(db: Executor, token: string): Promise<unknown>;
  /** Adds `userId` to the invitation's organization and uses the invitation up, in the caller's transaction. */
  acceptIn(tx: Executor, token: string, userId: string): Promise<unknown>;
}

/** Without configuration: one hash at a time, waits of at most 4 s. */
const DEFAULT_PASSWORD_HASHING: PasswordGateOptions = { concurrency: 1, maxWaitMs: 4_000 };

export interface SignUpInput {
  email: string;
  name: string;
  password: string;
}

export interface NewSession {
  userId: string;
  /** The cookie value; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

const tooMany = () => new AppError('rate_limited', 'Too many failed sign-ins: wait 15 minutes and try again');
const wrongCredentials = () => new AppError('unauthorized', 'Wrong e-mail or password');

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function accountProblems(input: { email?: string; name?: string; password: string }): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.email !== undefined && (!EMAIL.test(input.email) || input.email.length > 254)) details.push({ parameter: 'email', message: 'must be an e-mail address' });
  if (input.name !== undefined && (input.name.length < 1 || input.name.length > 200)) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
  const problem = passwordProblem(input.password);
  if (problem) details.push({ parameter: 'password', message: problem });
  return details;
}

export function createAccountsService(db: Db, options: AccountsOptions) {
  const logN = options.passwordScryptLogN ?? SCRYPT_LOG_N;
  // Every scrypt this service runs goes through the gate, in line by client address (a /56 for IPv6).
  const gate = createPasswordGate(options.passwordHashing ?? DEFAULT_PASSWORD_HASHING);
  const gateKey = (address: string | null) => (address === null ? 'no-address' : addressBucket(address, 56));
  const hash = (password: string, address: string | null) => gate.run(gateKey(address), () => hashPassword(password, logN));

  async function startSession(userId: string, userAgent: string | null): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + options.sessionTtlHours * 3_600_000);
    await sessionsRepository.insert(db, { tokenHash: hashSessionToken(token), userId, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
    return { userId, token, expiresAt };
  }

  // IPv6 clients count by /56: a subscriber's prefix, not each of its 2^72 addresses, is "an address".
  const limitKeys = (email: string, address: string) => ({
    pair: `pair:${addressBucket(address, 56)} ${email}`,
    account: `account:${email}`,
    address: `address:${addressBucket(address, 56)}`,
  });

  /** Reserves one password attempt under every limit (see SIGN_IN_LIMITS), all or none, before any hashing. */
  async function reserveAttempt(email: string, address: string): Promise<void> {
    const keys = limitKeys(email, address);
    await db.transaction().execute(async (tx) => {
      const pairFailures = await signInLimitsRepository.reserve(tx, keys.pair, PAIR_RULE);
      if (pairFailures === undefined) throw tooMany();
      if ((await signInLimitsRepository.reserve(tx, keys.account, ACCOUNT_RULE, pairFailures === 0)) === undefined) throw tooMany();
      const known = await signInLimitsRepository.knownSince(tx, keys.pair, SIGN_IN_LIMITS.knownPairSeconds);
      if ((await signInLimitsRepository.reserve(tx, keys.address, ADDRESS_RULE, known)) === undefined) throw tooMany();
    });
  }

  /** The attempt was right: the pair's failures are forgiven, the other counters get their reservation back. */
  async function attemptSucceeded(email: string, address: string): Promise<void> {
    const keys = limitKeys(email, address);
    await signInLimitsRepository.succeeded(db, keys.pair);
    await signInLimitsRepository.release(db, keys.account);
    await signInLimitsRepository.release(db, keys.address);
  }

  /** An attempt reserved but never checked (the gate refused it): it does not count. */
  async function attemptUnchecked(email: string, address: string): Promise<void> {
    const keys = limitKeys(email, address);
    for (const key of [keys.pair, keys.account, keys.address]) await signInLimitsRepository.release(db, key);
  }

  /**
   * Checks `password` for `user` under the limits; a right password stored with weaker parameters is
   * rehashed. A place in the password gate's line is taken first, so that a busy server answers 503 at
   * once without counting the attempt; then the attempt is reserved, and only then hashed (one scrypt,
   * whether or not the account exists). Throws unavailable, rate_limited (nothing checked) or unauthorized.
   */
  async function checkPassword(email: string, user: UserRow | undefined, password: string, address: string): Promise<void> {
    const ticket = gate.admit(gateKey(address));
    try {
      await reserveAttempt(email, address);
    } catch (error) {
      ticket.cancel();
      throw error;
    }
    let verification: Awaited<ReturnType<typeof verifyPassword>>;
    try {
      verification = await ticket.run(() => verifyPassword(password, user?.password_hash ?? null, logN));
    } catch (error) {
      if (error instanceof AppError && error.code === 'unavailable') await attemptUnchecked(email, address);
      throw error;
    }
    if (!user || !verification.ok) throw wrongCredentials();
    await attemptSucceeded(email, address);
    // A busy server rehashes at a later sign-in.
    if (verification.rehash) await hash(password, address).then((rehashed) => usersRepository.setPassword(db, user.id, rehashed), () => {});
  }

  /** Housekeeping: drops expired sessions, setup links and limiter counters. */
  async function prune(): Promise<void> {
    await sessionsRepository.deleteExpired(db);
    await setupTokensRepository.deleteExpired(db);
    await signInLimitsRepository.prune(db, SIGN_IN_LIMITS.windowSeconds, SIGN_IN_LIMITS.knownPairSeconds);
  }

  async function createSetupToken(userId: string | null, ttlHours: number): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
    await setupTokensRepository.insert(db, { tokenHash: hashSessionToken(token), userId, expiresAt });
    return { token, expiresAt };
  }

  async function makeOwnerIfFirst(tx: Executor, userId: string): Promise<void> {
    if (await usersRepository.hasInstanceOwner(tx)) return;
    try {
      await usersRepository.makeInstanceOwner(tx, userId);
    } catch (error) {
      // Another first account won the race.
      if (isUniqueViolation(error)) throw new AppError('conflict', 'Someone else has just set up this installation; please sign in');
      throw error;
    }
  }

  /** Whether the installation has its first account yet, and whether anyone may sign up now. */
  async function signUpState(): Promise<{ open: boolean; first: boolean }> {
    const first = !(await usersRepository.hasInstanceOwner(db));
    return { open: !first && options.signupOpen, first };
  }

  /** What a usable setup link is for: a named user, or the installation's first account (user undefined). */
  async function setupLink(token: string): Promise<{ user?: { email: string; name: string } } | undefined> {
    if (!/^[\w-]{43}$/.test(token)) return undefined;
    const row = await setupTokensRepository.findUsable(db, hashSessionToken(token));
    if (!row) return undefined;
    if (row.user_id === null) return (await usersRepository.hasInstanceOwner(db)) ? undefined : {};
    return { user: { email: row.email!, name: row.name! } };
  }

  return {
    signUpState,

    /**
     * Open sign-up (SIGNUP_OPEN, after the first account). It never signs anyone in and answers alike
     * whether or not the e-mail already has an account, which is left untouched: the new account's
     * owner signs in next. The installation's first account comes from a setup link instead.
     */
    async signUp(input: SignUpInput, address: string | null = null): Promise<void> {
      const email = normalizeEmail(input.email);
      const name = input.name.trim();
      const details = accountProblems({ email, name, password: input.password });
      if (details.length) throw new AppError('invalid_request', 'Please correct the highlighted fields', details);
      const state = await signUpState();
      if (state.first) throw new AppError('forbidden', 'This installation is not set up yet: open the setup link printed when the server started');
      if (!state.open) throw new AppError('forbidden', 'Sign-up is closed on this installation: ask an organization owner for an invitation link');
      // Hashed whether or not it is used, so that the answer takes as long either way.
      const passwordHash = await hash(input.password, address);
      if (await usersRepository.findByEmail(db, email)) return;
      try {
        await usersRepository.insert(db, { email, name, passwordHash });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    },

    /**
     * Joins an organization through its invitation link, signed out. A new e-mail creates the account;
     * an e-mail that has one joins with that account only if the password is its password (counted
     * like a sign-in). Either way the invitation is used up together with the membership.
     */
    async joinByInvite(inviteToken: string, input: SignUpInput, address: string, userAgent: string | null): Promise<NewSession> {
      const email = normalizeEmail(input.email);
      const name = input.name.trim();
      // The link is checked first: without a usable one, nothing else is revealed or checked.
      if (!(await options.invitations.findUsable(db, inviteToken))) throw new AppError('not_found', 'This invitation link is invalid, used or expired');
      const existing = EMAIL.test(email) ? await usersRepository.findByEmail(db, email) : undefined;
      if (existing) {
        await checkPassword(email, existing, input.password, address);
        await db.transaction().execute((tx) => options.invitations.acceptIn(tx, inviteToken, existing.id));
        return startSession(existing.id, userAgent);
      }
      const details = accountProblems({ email, name, password: input.password });
      if (details.length) throw new AppError('invalid_request', 'Please correct the highlighted fields', details);
      const passwordHash = await hash(input.password, address);
      const userId = await db.transaction().execute(async (tx) => {
        let id: string;
        try {
          id = (await usersRepository.insert(tx, { email, name, passwordHash })).id;
        } catch (error) {
          // Someone took the e-mail meanwhile: as for any existing account, only its password joins.
          if (isUniqueViolation(error)) throw wrongCredentials();
          throw error;
        }
        await options.invitations.acceptIn(tx, inviteToken, id);
        return id;
      });
      return startSession(userId, userAgent);
    },

    /**
     * Checks the password and opens a session. Every attempt is reserved under SIGN_IN_LIMITS before
     * the password is checked; past a limit the attempt is refused unchecked, even a right one.
     */
    async signIn(input: { email: string; password: string }, address: string, userAgent: string | null): Promise<NewSession> {
      const email = normalizeEmail(input.email).slice(0, 254);
      const user = await usersRepository.findByEmail(db, email);
      await checkPassword(email, user, input.password, address);
      // Housekeeping rides on sign-ins: the deletes use an index and touch only stale rows.
      await prune();
      return startSession(user!.id, userAgent);
    },

    startSession,

    /**
     * A new setup link for the installation's first account, when it has none yet (else undefined).
     * Each start-up of a server that is not set up makes one; earlier ones stay valid until they
     * expire or the first account exists (only the operator sees them).
     */
    async firstAccountSetupLink(): Promise<{ token: string; expiresAt: Date } | undefined> {
      if (await usersRepository.hasInstanceOwner(db)) return undefined;
      return createSetupToken(null, SETUP_LINK_TTL_HOURS.firstAccount);
    },

    /**
     * `changelog users invite`: a setup link that sets this user's password (and makes the user the
     * installation's owner if there is none yet). Using it signs every other session of the user out.
     */
    userSetupLink: (userId: string) => createSetupToken(userId, SETUP_LINK_TTL_HOURS.user),

    setupLink,

    /**
     * Uses a setup link: sets the password of its user, or creates the installation's first account
     * (claiming a passwordless user with that e-mail, such as the demo user), and signs it in. The link
     * works once; a failed attempt leaves it usable.
     */
    async completeSetup(token: string, input: { email?: string; name?: string; password: string }, address: string | null, userAgent: string | null): Promise<NewSession> {
      const gone = () => new AppError('not_found', 'This setup link is invalid, used or expired');
      const link = await setupLink(token);
      if (!link) throw gone();
      const email = link.user ? undefined : normalizeEmail(input.email ?? '');
      const name = link.user ? undefined : (input.name ?? '').trim();
      const details = accountProblems({ email, name, password: input.password });
      if (details.length) throw new AppError('invalid_request', 'Please correct the highlighted fields', details);
      const passwordHash = await hash(input.password, address);
      const userId = await db.transaction().execute(async (tx) => {
        const used = await setupTokensRepository.consume(tx, hashSessionToken(token));
        if (!used) throw gone();
        let id: string;
        if (used.user_id !== null) {
          id = used.user_id;
          await usersRepository.setPassword(tx, id, passwordHash);
          await sessionsRepository.deleteForUser(tx, id);
        } else {
          if (await usersRepository.hasInstanceOwner(tx)) throw gone();
          const existing = await usersRepository.findByEmail(tx, email!);
          if (existing?.password_hash) throw new AppError('conflict', 'This installation is already set up; please sign in');
          if (existing) {
            await usersRepository.setPassword(tx, existing.id, passwordHash);
            id = existing.id;
          } else {
            id = (await usersRepository.insert(tx, { email: email!, name: name!, passwordHash })).id;
          }
        }
        await makeOwnerIfFirst(tx, id);
        await setupTokensRepository.markUsedBy(tx, used.id, id);
        return id;
      });
      return startSession(userId, userAgent);
    },

    /** The signed-in user behind a session cookie, or undefined (unknown, expired or signed out). */
    async resolveSession(token: string): Promise<SessionUser | undefined> {
      if (!/^[\w-]{43}$/.test(token)) return undefined;
      const user = await sessionsRepository.findUser(db, hashSessionToken(token));
      if (user && Date.now() - user.last_seen_at.getTime() > TOUCH_SECONDS * 1000) {
        await sessionsRepository.touch(db, user.session_id);
      }
      return user;
    },

    /** Ends one session: its row is deleted, so the cookie signs nobody in anywhere. */
    async signOut(token: string): Promise<void> {
      await sessionsRepository.deleteByHash(db, hashSessionToken(token));
    },

    signOutEverywhere: (userId: string) => sessionsRepository.deleteForUser(db, userId),
    sessionCount: (userId: string) => sessionsRepository.countForUser(db, userId),

    /**
     * Changes the password after checking the current one (limited like a sign-in from `address`), and
     * signs out every other session of the user: whoever knew the old password is out.
     */
    async changePassword(user: Pick<SessionUser, 'id' | 'email' | 'session_id'>, current: string, next: string, address: string): Promise<void> {
      const problem = passwordProblem(next);
      if (problem) throw new AppError('invalid_request', 'Invalid new password', [{ parameter: 'new_password', message: problem }]);
      try {
        await checkPassword(user.email, await usersRepository.findById(db, user.id), current, address);
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthorized') {
          throw new AppError('invalid_request', 'The current password is wrong', [{ parameter: 'current_password', message: 'is wrong' }]);
        }
        throw error;
      }
      const passwordHash = await hash(next, address);
      await db.transaction().execute(async (tx) => {
        await usersRepository.setPassword(tx, user.id, passwordHash);
        await sessionsRepository.deleteForUserExcept(tx, user.id, user.session_id);
      });
    },

    prune,

    /** The password gate's figures (running, waiting, peak, refused): tests and metrics. */
    passwordHashingStats: () => gate.stats(),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

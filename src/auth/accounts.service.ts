import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { AppError, type ErrorDetail } from '../http/errors.js';
import { acceptInviteIn } from '../orgs/orgs.service.js';
import { usersRepository } from '../users/users.repository.js';
import { sessionsRepository, signInFailuresRepository, type SessionUser } from './auth.repository.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Failed sign-ins allowed inside the window, per account and per client address. */
export const SIGN_IN_LIMITS = { windowSeconds: 15 * 60, perAccount: 5, perAddress: 20 } as const;
/** A session's last_seen_at is written at most this often. */
const TOUCH_SECONDS = 300;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface AccountsOptions {
  signupOpen: boolean;
  sessionTtlHours: number;
}

export interface SignUpInput {
  email: string;
  name: string;
  password: string;
  /** Joins the invite's organization; an invite also admits sign-ups while sign-up is closed. */
  inviteToken?: string;
}

export interface NewSession {
  userId: string;
  /** The cookie value; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export function createAccountsService(db: Db, options: AccountsOptions) {
  async function startSession(userId: string, userAgent: string | null): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + options.sessionTtlHours * 3_600_000);
    await sessionsRepository.insert(db, { tokenHash: hashSessionToken(token), userId, expiresAt, userAgent: userAgent?.slice(0, 300) ?? null });
    return { userId, token, expiresAt };
  }

  /** Housekeeping: drops expired sessions and old failure records. */
  async function prune(): Promise<void> {
    await sessionsRepository.deleteExpired(db);
    await signInFailuresRepository.prune(db, SIGN_IN_LIMITS.windowSeconds);
  }

  return {
    /** Whether anyone may sign up now, and whether the next account becomes the installation's owner. */
    async signUpState(): Promise<{ open: boolean; first: boolean }> {
      const first = !(await usersRepository.hasInstanceOwner(db));
      return { open: first || options.signupOpen, first };
    },

    /**
     * Creates an account with a password and signs it in. The first account on an installation
     * becomes its owner (and may claim the passwordless demo user by its e-mail); after that,
     * sign-up needs SIGNUP_OPEN or an invitation.
     */
    async signUp(input: SignUpInput, userAgent: string | null): Promise<NewSession> {
      const email = input.email.trim().toLowerCase();
      const name = input.name.trim();
      const details: ErrorDetail[] = [];
      if (!EMAIL.test(email) || email.length > 254) details.push({ parameter: 'email', message: 'must be an e-mail address' });
      if (name.length < 1 || name.length > 200) details.push({ parameter: 'name', message: 'must be 1 to 200 characters' });
      const problem = passwordProblem(input.password);
      if (problem) details.push({ parameter: 'password', message: problem });
      if (details.length) throw new AppError('invalid_request', 'Please correct the highlighted fields', details);
      const passwordHash = await hashPassword(input.password);

      const userId = await db.transaction().execute(async (tx) => {
        const first = !(await usersRepository.hasInstanceOwner(tx));
        if (!first && !options.signupOpen && !input.inviteToken) {
          throw new AppError('forbidden', 'Sign-up is closed on this installation: ask an organization owner for an invitation link');
        }
        const existing = await usersRepository.findByEmail(tx, email);
        let id: string;
        if (existing) {
          // Only the installation's first account may claim a passwordless (seeded) user.
          if (!first || existing.password_hash !== null) throw new AppError('conflict', `An account with e-mail ${email} already exists`);
          await usersRepository.setPassword(tx, existing.id, passwordHash);
          id = existing.id;
        } else {
          try {
            id = (await usersRepository.insert(tx, { email, name, passwordHash })).id;
          } catch (error) {
            if (isUniqueViolation(error)) throw new AppError('conflict', `An account with e-mail ${email} already exists`);
            throw error;
          }
        }
        if (first) {
          try {
            await usersRepository.makeInstanceOwner(tx, id);
          } catch (error) {
            // Another first sign-up won the race.
            if (isUniqueViolation(error)) throw new AppError('conflict', 'Someone else has just set up this installation; please sign in');
            throw error;
          }
        }
        if (input.inviteToken) await acceptInviteIn(tx, input.inviteToken, id);
        return id;
      });
      return startSession(userId, userAgent);
    },

    /**
     * Checks the password and opens a session. Failures are counted per e-mail and per address;
     * past either limit every attempt is refused (even a correct one) until the window moves on.
     */
    async signIn(input: { email: string; password: string }, address: string, userAgent: string | null): Promise<NewSession> {
      const email = input.email.trim().toLowerCase().slice(0, 254);
      const recent = await signInFailuresRepository.recent(db, email, address, SIGN_IN_LIMITS.windowSeconds);
      if (recent.email >= SIGN_IN_LIMITS.perAccount || recent.address >= SIGN_IN_LIMITS.perAddress) {
        throw new AppError('rate_limited', 'Too many failed sign-ins: wait 15 minutes and try again');
      }
      const user = await usersRepository.findByEmail(db, email);
      const ok = await verifyPassword(input.password, user?.password_hash ?? null);
      if (!user || !ok) {
        await signInFailuresRepository.record(db, email, address);
        throw new AppError('unauthorized', 'Wrong e-mail or password');
      }
      await signInFailuresRepository.clearEmail(db, email);
      // Housekeeping rides on sign-ins: both deletes use an index and touch only stale rows.
      await prune();
      return startSession(user.id, userAgent);
    },

    startSession,

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

    async changePassword(userId: string, current: string, next: string): Promise<void> {
      const user = await usersRepository.findById(db, userId);
      if (!user || !(await verifyPassword(current, user.password_hash))) {
        throw new AppError('invalid_request', 'The current password is wrong', [{ parameter: 'current_password', message: 'is wrong' }]);
      }
      const problem = passwordProblem(next);
      if (problem) throw new AppError('invalid_request', 'Invalid new password', [{ parameter: 'new_password', message: problem }]);
      await usersRepository.setPassword(db, userId, await hashPassword(next));
    },

    prune,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

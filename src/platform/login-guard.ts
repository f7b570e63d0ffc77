import { isIP } from 'node:net';
import { AppError } from '../errors.js';
import type { ThrottleStore, ThrottleWindow } from './throttle-store.js';

export interface LoginLimits {
  /** Wrong passwords per account (e-mail) per window; then 429 until the window ends. */
  maxFailuresPerAccount: number;
  /** Log-in attempts per address per window. */
  maxLoginsPerAddress: number;
  /** Sign-ups per address per hour. */
  maxSignUpsPerAddress: number;
}

const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const SIGN_UP_WINDOW_MS = 60 * 60 * 1000;

/**
 * Brute-force limits of log-in and sign-up. Failures are counted per e-mail whether or not an
 * account has it, and the refusal reads the same either way: the limit tells nothing about
 * which accounts exist. It is checked before the password is hashed, so a refused attempt costs
 * no hashing.
 */
/** The 429 of too many log-ins (from one address or against one e-mail), for `seconds` more. */
export const tooManyLogins = (seconds: number) => refusal('로그인 시도가 너무 많습니다.', seconds);
/** The 429 of too many sign-ups from one address, for `seconds` more. */
export const tooManySignUps = (seconds: number) => refusal('이 주소에서 가입 요청이 너무 많습니다.', seconds);

function refusal(message: string, seconds: number): AppError {
  return new AppError('RATE_LIMITED', `${message} ${waitText(seconds)} 후에 다시 시도하세요.`, {}, seconds);
}

export function createLoginGuard(store: ThrottleStore, limits: LoginLimits, clock: () => Date) {
  function refuse(window: ThrottleWindow, error: (seconds: number) => AppError): never {
    throw error(Math.max(1, Math.ceil((window.windowEndsAt.getTime() - clock().getTime()) / 1000)));
  }

  return {
    async beforeLogin(email: string, address: string | undefined): Promise<void> {
      if (address) {
        const byAddress = await store.hit(`login-address:${addressKey(address)}`, LOGIN_WINDOW_MS);
        if (byAddress.hits > limits.maxLoginsPerAddress) refuse(byAddress, tooManyLogins);
      }
      const failures = await store.peek(`login-failures:${email}`);
      if (failures && failures.hits >= limits.maxFailuresPerAccount) refuse(failures, tooManyLogins);
    },

    async loginFailed(email: string): Promise<void> {
      await store.hit(`login-failures:${email}`, LOGIN_WINDOW_MS);
    },

    async loginSucceeded(email: string): Promise<void> {
      await store.clear(`login-failures:${email}`);
    },

    async beforeSignUp(address: string | undefined): Promise<void> {
      if (!address) return;
      const window = await store.hit(`sign-up-address:${addressKey(address)}`, SIGN_UP_WINDOW_MS);
      if (window.hits > limits.maxSignUpsPerAddress) refuse(window, tooManySignUps);
    },
  };
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;

/** An IPv4 address as is; IPv6 by its /64, which one subscriber usually holds whole. */
export function addressKey(address: string): string {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds}초`;
  return `${Math.ceil(seconds / 60)}분`;
}

import { AppError } from '../errors.js';

/** The roles of a team member (CONTRACT §3 Teams), most rights first. */
export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a signed-in member may do, by right. A route that accepts a login token names the one
 * right it needs (api/route.ts `right`); the table below says which roles hold it:
 * - `read`: see the team, its usage, keys' errors, incidents and logs (every member);
 * - `keys`: make, rename, rotate and revoke API keys; run what keys run (watches, feedback);
 * - `subscriptions`: subscribe the team to an API;
 * - `members`: invite, change and remove members;
 * - `audit`: read and export the audit log.
 */
export const RIGHTS = ['read', 'keys', 'subscriptions', 'members', 'audit'] as const;
export type Right = (typeof RIGHTS)[number];

export const ROLE_RIGHTS: Readonly<Record<Role, readonly Right[]>> = {
  owner: ['read', 'keys', 'subscriptions', 'members', 'audit'],
  admin: ['read', 'keys', 'subscriptions', 'members', 'audit'],
  developer: ['read', 'keys'],
  viewer: ['read'],
};

export const ROLE_LABELS: Readonly<Record<Role, { ko: string; en: string }>> = {
  owner: { ko: '소유자', en: 'owner' },
  admin: { ko: '관리자', en: 'admin' },
  developer: { ko: '개발자', en: 'developer' },
  viewer: { ko: '보기 전용', en: 'viewer' },
};

export function roleHolds(role: Role, right: Right): boolean {
  return ROLE_RIGHTS[role].includes(right);
}

/** The roles that hold a right, for the docs ("owner, admin"). */
export function rolesHolding(right: Right): Role[] {
  return ROLES.filter((role) => roleHolds(role, right));
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** 403 FORBIDDEN_ROLE: names the roles that may, so the member knows whom to ask. */
export function forbiddenRole(right: Right): AppError {
  const roles = rolesHolding(right);
  return new AppError(
    'FORBIDDEN_ROLE',
    `이 작업은 ${roles.map((role) => ROLE_LABELS[role].ko).join('·')} 역할만 할 수 있습니다. 팀 관리자에게 요청하세요.`,
    {
      roles,
    },
  ).en(`Only the ${roles.join(' or ')} role may do this. Ask your team's admin.`);
}

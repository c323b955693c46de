/**
 * The portal user pool's password policy, in the user-pool API's shape: CDK's pool
 * (infra/user-pool.ts) and the local stand-in (scripts/local/user-pool.ts) both take it
 * from here, so a password the stand-in accepts is one AWS accepts.
 */
export const USER_POOL_PASSWORD_POLICY = {
  MinimumLength: 12,
  RequireUppercase: true,
  RequireLowercase: true,
  RequireNumbers: true,
  RequireSymbols: true,
  TemporaryPasswordValidityDays: 3,
} as const;

import { JwtVerifier } from 'aws-jwt-verify';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';

/**
 * What the local gateway does in place of API Gateway's Cognito user-pool authorizer:
 * verifies the user pool's ID token (RS256 signature against the pool's JWKS, `iss` the
 * pool, `aud` its app client, `exp` not passed, `token_use` `id`) and hands on its claims
 * as API Gateway does, every value a string. aws-jwt-verify fetches JWKS over https only,
 * so the stand-in's JWKS (plain http on loopback) is fetched here and given to it.
 */

export interface IdTokenVerifier {
  /** The token's claims as API Gateway passes them (`requestContext.authorizer.claims`), or undefined when it is not valid. */
  claims(token: string): Promise<Record<string, string> | undefined>;
}

export async function idTokenVerifier(pool: { issuer: string; clientId: string }): Promise<IdTokenVerifier> {
  const jwksUri = `${pool.issuer}/.well-known/jwks.json`;
  const verifier = JwtVerifier.create({
    issuer: pool.issuer,
    audience: pool.clientId,
    jwksUri,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'id') throw new Error(`token_use is ${String(payload.token_use)}, not id`);
    },
  });
  const response = await fetch(jwksUri);
  if (!response.ok) throw new Error(`The user pool's JWKS at ${jwksUri} answered ${response.status}`);
  verifier.cacheJwks((await response.json()) as Parameters<typeof verifier.cacheJwks>[0]);
  return {
    async claims(token) {
      try {
        return asGatewayClaims(await verifier.verify(token));
      } catch {
        return undefined;
      }
    },
  };
}

/** API Gateway's claims map: strings only, a list (`cognito:groups`) as its values joined by commas. */
function asGatewayClaims(payload: JwtPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) claims[name] = Array.isArray(value) ? value.join(',') : String(value);
  return claims;
}

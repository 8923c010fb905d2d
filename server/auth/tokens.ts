// Access tokens: a signed JWT naming a server-side session, so logout revokes at once.
import { SignJWT, jwtVerify } from 'jose';

export interface TokenClaims {
  sid: string;
  sub: string;
}

export async function signToken(secret: Uint8Array, claims: TokenClaims, ttlSeconds: number): Promise<string> {
  return new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/** The claims of a valid token, or null for a missing, malformed, forged or expired one. */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.sid !== 'string' || typeof payload.sub !== 'string') return null;
    return { sid: payload.sid, sub: payload.sub };
  } catch {
    return null;
  }
}

/** 'bearer <token>' (any case) → token. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^bearer\s+(\S+)$/i.exec(header.trim());
  return m ? m[1] : null;
}

// An OpenID Certified provider (oidc-provider, from the npm registry) for the browser tests, on
// loopback: one public client, the console, with PKCE; access tokens are JWTs for the API's
// audience and live ACCESS_TOKEN_SECONDS; refresh tokens rotate. Any login and password sign in,
// the login being the person's e-mail address. Its pages reach nothing beyond loopback (their
// web font is refused by the policy below).
//
// A portal that embeds the console gets its people's access tokens from the same provider; the
// tests' portal does so at /test/access-token?sub=EMAIL&seconds=N (a token signed with the
// provider's own key, answered to any origin: loopback only).
//
// node provider.mjs PORT CONSOLE_ORIGIN AUDIENCE ACCESS_TOKEN_SECONDS
// with OIDC_PROVIDER naming the package's lib/index.js and KEY_FILE where its key is kept. Prints "listening" once it is.

import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const { default: Provider } = await import(pathToFileURL(process.env.OIDC_PROVIDER).href);
const [port, consoleOrigin, audience, accessTokenSeconds] = process.argv.slice(2);
const issuer = `http://127.0.0.1:${port}`;
const clientId = 'platform-console';
const scopes = 'openid profile email offline_access';
// Its signing key outlives a restart (KEY_FILE), as a real provider's does.
if (!existsSync(process.env.KEY_FILE)) {
  const { privateKey: generated } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(process.env.KEY_FILE, JSON.stringify(generated.export({ format: 'jwk' })));
}
const privateJwk = JSON.parse(readFileSync(process.env.KEY_FILE, 'utf8'));
const privateKey = createPrivateKey({ key: privateJwk, format: 'jwk' });
const signingKey = { ...privateJwk, kid: 'test-key', alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  clients: [{
    client_id: clientId,
    token_endpoint_auth_method: 'none',
    redirect_uris: [`${consoleOrigin}/sign-in/callback`],
    post_logout_redirect_uris: [`${consoleOrigin}/sign-in`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  }],
  scopes: scopes.split(' '),
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: id, email_verified: true, name: id.split('@')[0] };
      },
    };
  },
  // The API names the person by the access token's e-mail address.
  async extraTokenClaims(_ctx, token) {
    return token.kind === 'AccessToken' ? { email: token.accountId } : undefined;
  },
  // Consent is the organization's, not asked of the person.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      return ctx.oidc.provider.Grant.find(grantId);
    }
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope(scopes);
    grant.addResourceScope(audience, 'api');
    await grant.save();
    return grant;
  },
  features: {
    devInteractions: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope: 'api',
        audience,
        accessTokenFormat: 'jwt',
        accessTokenTTL: Number(accessTokenSeconds),
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  // Without `prompt=consent`, oidc-provider drops `offline_access` (as OpenID Connect Core
  // allows); the console's client is given refresh tokens all the same, as Keycloak, Auth0 and
  // Okta give them to a public client with the refresh token grant.
  async issueRefreshToken(_ctx, client) {
    return client.grantTypeAllowed('refresh_token');
  },
  rotateRefreshToken: true,
  ttl: {
    AccessToken: Number(accessTokenSeconds),
    IdToken: 600,
    RefreshToken: 3600,
    Grant: 3600,
    Session: 3600,
    Interaction: 600,
    AuthorizationCode: 60,
  },
});

const base64url = (value) => Buffer.from(value).toString('base64url');

provider.use(async (ctx, next) => {
  if (ctx.path === '/test/access-token') {
    const sub = ctx.query.sub;
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: signingKey.kid }));
    const claims = base64url(JSON.stringify({
      iss: issuer, aud: audience, sub, email: sub, client_id: 'portal',
      iat: now, exp: now + Number(ctx.query.seconds),
    }));
    const signature = sign('sha256', Buffer.from(`${header}.${claims}`), privateKey);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = { access_token: `${header}.${claims}.${signature.toString('base64url')}` };
    return;
  }
  await next();
  ctx.set('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'");
});

provider.listen(Number(port), '127.0.0.1', () => console.log('listening'));

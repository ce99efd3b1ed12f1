/**
 * The built-in sign-in page with the whole catalog: one button per provider, labelled with its
 * name, inside a form that posts to signin/<id> with the CSRF token, and the provider's colours
 * applied through the `.provider-<id>` rules of the page's stylesheet (allowed by the CSP hash).
 */
import { createHash } from "node:crypto"
import type { OAuthProviderConfig } from "../../lib/providers/types.js"
import Apple from "../../lib/providers/apple.js"
import Auth0 from "../../lib/providers/auth0.js"
import Authentik from "../../lib/providers/authentik.js"
import Cognito from "../../lib/providers/cognito.js"
import Discord from "../../lib/providers/discord.js"
import Facebook from "../../lib/providers/facebook.js"
import GitHub from "../../lib/providers/github.js"
import GitLab from "../../lib/providers/gitlab.js"
import Google from "../../lib/providers/google.js"
import Keycloak from "../../lib/providers/keycloak.js"
import LinkedIn from "../../lib/providers/linkedin.js"
import MicrosoftEntraID from "../../lib/providers/microsoft-entra-id.js"
import OIDC from "../../lib/providers/oidc.js"
import Okta from "../../lib/providers/okta.js"
import Reddit from "../../lib/providers/reddit.js"
import Slack from "../../lib/providers/slack.js"
import Spotify from "../../lib/providers/spotify.js"
import TikTok from "../../lib/providers/tiktok.js"
import Twitch from "../../lib/providers/twitch.js"
import Twitter from "../../lib/providers/twitter.js"
import VK from "../../lib/providers/vk.js"
import Zitadel from "../../lib/providers/zitadel.js"
import { makeApp, request, testConfig } from "../helpers/app.js"

const credentials = { clientId: "client-id", clientSecret: "client-secret" }

const PROVIDERS: OAuthProviderConfig[] = [
  GitHub(credentials),
  Google(credentials),
  GitLab(credentials),
  Discord(credentials),
  MicrosoftEntraID(credentials),
  Apple(credentials),
  Facebook(credentials),
  Twitter(credentials),
  LinkedIn(credentials),
  Slack(credentials),
  Twitch(credentials),
  Spotify(credentials),
  Reddit(credentials),
  Keycloak({ ...credentials, issuer: "https://sso.example.com/realms/acme" }),
  Auth0({ ...credentials, issuer: "https://acme.eu.auth0.com/" }),
  Okta({ ...credentials, issuer: "https://acme.okta.com/oauth2/default" }),
  Cognito({ ...credentials, issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123" }),
  Zitadel({ ...credentials, issuer: "https://acme-x1y2z3.zitadel.cloud" }),
  Authentik({ ...credentials, issuer: "https://auth.example.com/application/o/gatehouse/" }),
  OIDC({ ...credentials, id: "corp", name: "Corp SSO", issuer: "https://sso.example.org" }),
  VK(credentials),
  TikTok(credentials),
] as OAuthProviderConfig[]

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

let page: { html: string; csp: string; css: string }

beforeAll(async () => {
  const app = makeApp(testConfig({ providers: PROVIDERS }))
  const response = await request(app).get("/auth/signin").expect(200)
  const html = response.text
  const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ""
  page = { html, csp: String(response.headers["content-security-policy"]), css }
})

test("the catalog has 22 providers with distinct ids", () => {
  expect(new Set(PROVIDERS.map((provider) => provider.id)).size).toBe(22)
})

test.each(PROVIDERS.map((provider) => [provider.id, provider] as const))("%s: a button with its name in a form posting to signin/<id>", (id, provider) => {
  const form = new RegExp(`<form class="provider provider-${escapeRegExp(id)}" method="post" action="([^"]+)">([\\s\\S]*?)</form>`).exec(page.html)
  expect(form).not.toBeNull()
  expect(new URL(form![1]!).pathname).toBe(`/auth/signin/${id}`)
  expect(form![2]).toMatch(/<input type="hidden" name="csrfToken" value="[0-9a-f]{64}">/)
  expect(form![2]).toContain(`<button type="submit">Sign in with ${provider.name}</button>`)
})

test.each(PROVIDERS.map((provider) => [provider.id, provider] as const))("%s: its colours through .provider-<id> in the stylesheet", (id, provider) => {
  expect(page.css).toContain(`.provider-${id} button{background:${provider.style!.bg};color:${provider.style!.text}}`)
})

test("the stylesheet with the provider rules is the one the CSP allows", () => {
  const hash = createHash("sha256").update(page.css).digest("base64")
  expect(page.csp).toContain(`style-src 'sha256-${hash}'`)
})

/**
 * `gatehouse`: authentication and sessions for Express and Connect apps.
 *
 *   app.use("/auth", authRouter(config))       every action under /auth
 *   app.use(authSession(config))               req.auth / res.locals.auth: Session | null
 *   app.get("/me", requireAuth(config), ...)   sign-in redirect (pages) or 401 JSON (APIs)
 */
export { authRouter } from "./express/router.js"
export { authSession, getSession } from "./express/session.js"
export { requireAuth, type RequireAuthOptions } from "./express/require-auth.js"
export { signIn, signOut, type SignInOptions, type SignOutOptions, type AuthorizationParams } from "./express/server-actions.js"
export { listSessions, revokeSession, revokeOtherSessions, revokeUserSessions, type SessionInfo } from "./devices/helpers.js"
export { unlinkAccount, deleteAccount } from "./account/helpers.js"
export {
  hasPermission,
  organizationAction,
  switchOrganization,
  createOrganization,
  updateOrganization,
  deleteOrganization,
  addMember,
  setMemberRole,
  removeMember,
  transferOwnership,
  inviteMember,
  listOrganizations,
  getOrganization,
} from "./organizations/helpers.js"
export type { OrganizationsOptions, InvitationMail } from "./organizations/options.js"
export type { ActiveOrganization } from "./organizations/memberships.js"
export type { OrganizationEvent } from "./organizations/events.js"
export type { OrganizationDetails, MemberView } from "./organizations/details.js"
export type { SentInvitation, PublicInvitation } from "./organizations/invitations.js"
export type { PermissionRule } from "./organizations/guard.js"
export {
  createSsoConnection,
  updateSsoConnection,
  deleteSsoConnection,
  addDomain as addSsoDomain,
  verifyDomain as verifySsoDomain,
  setDomainEnforcement as setSsoDomainEnforcement,
  removeDomain as removeSsoDomain,
  listSsoSettings,
} from "./sso/helpers.js"
export type { SsoConnectionInput, SsoConnectionView, SsoSettingsView, SsoDomainView, SsoConnectionResult, SsoHelperOptions } from "./sso/helpers.js"
export type { SsoOptions } from "./sso/options.js"
export { adminAction, isAdmin, listUsers, getUserDetails, createUser, updateUser, banUser, unbanUser, removeTwoFactor, deleteUser } from "./admin/helpers.js"
export type { AdminUserSummary, UserPage } from "./admin/users.js"
export type { AdminUserDetails } from "./admin/support.js"
export type { AdminOptions, ImpersonationOptions } from "./admin/settings.js"
export type { AdminEvent } from "./admin/events.js"
export type { ImpersonatedBy } from "./admin/impersonation/facts.js"
export { apiKeyAction, createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from "./api-keys/helpers.js"
export type { CreateApiKeyInput } from "./api-keys/helpers.js"
export type { ApiKeyView, CreatedApiKey } from "./api-keys/manage.js"
export type { ApiKeyFact } from "./api-keys/caller.js"
export type { ApiKeysOptions } from "./api-keys/settings.js"
export type { BotProtectionOptions } from "./bot-protection/settings.js"
export type { ApiKeyEvent } from "./api-keys/events.js"
export { createScimToken, revokeScimToken, listScimTokens, setScimGroupRole, listScimGroups } from "./scim/helpers.js"
export type { ScimTokenView, ScimGroupView, CreatedScimToken } from "./scim/helpers.js"
export type { ScimOptions } from "./scim/options.js"
// The formatters the built-in account page uses, for apps that draw their own (issue #26).
export { deviceLabel } from "./devices/label.js"
export { devicePlace } from "./devices/place.js"
export { formatDateTime, formatRelativeTime } from "./devices/when.js"
export { getAccessToken, type GetAccessTokenOptions } from "./tokens/get-access-token.js"
export { createOidcClient, deleteOidcClient, listConnectedApps, listOidcClients, revokeConnectedApp, rotateOidcClientSecret, verifyAccessToken } from "./identity-provider/helpers.js"
export type { CreateOidcClientInput, OidcClientView } from "./identity-provider/clients.js"
export type { ConnectedApp } from "./identity-provider/grants.js"
export type { AccessTokenFact, CheckedAccessToken } from "./identity-provider/access-token.js"
export type { OidcClaimsParams, OidcClientMetadata, OidcProviderOptions, OidcResourceOptions } from "./identity-provider/settings.js"
export type { AccessTokenOption } from "./identity-provider/guard.js"
export { oauthMetadata, protectedResourceMetadata, type OAuthMetadataOptions, type ProtectedResourceMetadataOptions } from "./identity-provider/well-known.js"
export type { IdentityProviderEvent } from "./identity-provider/events.js"
export { verifyServiceToken, type ServiceTokenPayload, type VerifyServiceTokenOptions } from "./service-tokens/index.js"
export { signInAction, signOutAction, type FormActionResult, type FormActionFailure } from "./express/form-actions.js"
export { csrfToken } from "./express/csrf-token.js"
export type { GatehouseRequest, GatehouseResponse, Middleware, NextFunction } from "./express/types.js"
export * from "./errors.js"
export type * from "./types.js"
// Each capability's action names join `AuthAction`, its options `AuthConfig` and its events
// `EventCallbacks` from its own folder (declaration merging in its capability.ts): this line brings
// those declarations into the published types.
export type {} from "./capabilities.js"
export type * from "./adapters.js"
export type { WarningCode } from "./warnings.js"
export type { TelemetryOptions } from "./telemetry/options.js"
export type { TwoFactorChallengeMessage } from "./two-factor/events.js"
export type {
  CredentialsConfig,
  CredentialInput,
  OAuthProviderConfig,
  EmailProviderConfig,
  WebAuthnProviderConfig,
  Provider,
  ProviderType,
} from "./providers/types.js"

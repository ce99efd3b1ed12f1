/**
 * SCIM provisioning's English texts: the organization page's SCIM section and the page that shows
 * a new token once. The other languages beside this file have exactly these keys (the type checks
 * it, and a test). `{name}`, `{when}`, `{count}` are filled in by the templates.
 */
export const en = {
  "scim.heading": "Directory provisioning (SCIM)",
  "scim.intro": "Your identity provider (Okta, Microsoft Entra ID and others) can create, update and remove this organization's members for you. Give it the endpoint below and a token.",
  "scim.recent": "Changes here need a recent sign-in.",
  "scim.endpoint": "SCIM endpoint (base URL)",
  "scim.endpointHint": "Paste this into your identity provider's provisioning settings.",
  "scim.tokens.heading": "Tokens",
  "scim.tokens.none": "There are no tokens yet: your identity provider cannot connect.",
  "scim.tokens.created": "Created {when}",
  "scim.tokens.lastUsed": "last used {when}",
  "scim.tokens.never": "never",
  "scim.tokens.revokeConfirm": "Yes, revoke the token {name}",
  "scim.tokens.revokeText": "The identity provider that uses it can no longer make changes. Members it created stay.",
  "scim.tokens.revoke": "Revoke {name}",
  "scim.tokens.name": "Token name",
  "scim.tokens.nameHint": "So you know later which identity provider uses it, for example Okta.",
  "scim.tokens.create": "Create token",
  "scim.groups.heading": "Groups and roles",
  "scim.groups.intro": "Groups your identity provider sends appear here. Choose the role the members of each group receive. Owners are never changed by your identity provider.",
  "scim.groups.none": "Your identity provider has not sent any groups yet.",
  "scim.groups.members": "Members: {count}",
  "scim.groups.role": "Role of the members of {name}",
  "scim.groups.noRole": "No role from this group",
  "scim.groups.save": "Save role",
  "scim.saved.revoke-token": "The token was revoked.",
  "scim.saved.group-role": "The group's role was saved.",
  "scim.token.title": "Your new SCIM token",
  "scim.token.heading": "Your new SCIM token",
  "scim.token.once": "Copy the token named “{name}” now: it is shown only this once and cannot be displayed again.",
  "scim.token.label": "Token",
  "scim.token.next": "In your identity provider, enter the endpoint as the SCIM base URL and the token as the bearer token (API token), then test the connection.",
  "scim.token.back": "Back to the organization",
} as const

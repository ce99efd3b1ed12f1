/** What a connection's identity provider says of the person, whatever the protocol (issue #28). */
export interface SsoProfile {
  /** The provider's stable id of the person (SAML NameID, OIDC `sub`). */
  subject: string
  /** Lower-cased. */
  email?: string
  name?: string
  groups?: string[]
  /** SAML: the NameID's format and the session index, for single logout. */
  nameIdFormat?: string
  sessionIndex?: string
  /** Every attribute (claim) as received, for the `signIn` callback's `profile`. */
  attributes: Record<string, unknown>
}

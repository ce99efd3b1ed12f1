/**
 * The data of the identity provider's pages (pages.ts, views/), made by interaction.ts and
 * sources.ts. Every form posts back where the model says, with the token the model carries
 * (`csrfToken` for Gatehouse's own forms, `xsrf` for the forms `oidc-provider` checks).
 */

/** The client asking, as the pages show it (its own words: always escaped). */
export interface ClientView {
  /** `client_name`, else the client id. */
  name: string
  /** `client_uri`, when the client registered one (shown as text, linked). */
  uri?: string
}

/** The consent page: "<client> wants to …" with Allow and Deny. */
export interface ConsentModel {
  /** Where the form posts (the interaction's own address). */
  action: string
  csrfToken: string
  client: ClientView
  /** Who is signed in (the grant is theirs). */
  user: { email: string; name: string | null }
  /** The scopes asked for that were not granted before (each shown with its text when known, else its name). */
  scopes: readonly string[]
  /** Scopes this client already holds (listed as "already allowed"). */
  granted: readonly string[]
  /** The APIs (resource indicators) the tokens will be for. */
  resources: readonly string[]
  /** Sign out and sign in as someone else, then come back. */
  switchAccountUrl: string
}

/** The device flow's code entry page (the user types the code shown on the TV or CLI). */
export interface DeviceInputModel {
  /** Where the form posts, and the token `oidc-provider` checks (hidden field `xsrf`). */
  action: string
  xsrf: string
  /** The code typed before, shown again after a mistake. */
  userCode?: string
  /** Why the code was not accepted: unknown, expired or already used, or nothing typed. */
  error?: "invalid" | "expired" | "missing"
  /** The code is digits only (numeric keyboard). */
  digits: boolean
}

/** The device flow's confirmation: "Is this the code your device shows?" */
export interface DeviceConfirmModel {
  action: string
  xsrf: string
  /** The code, formatted (`BCDF-GHJK`): posted back as `user_code` with `confirm=yes`, or `abort=yes` to refuse. */
  userCode: string
  client: ClientView
  /** What the device said of itself when it asked (its address and user agent), when known. */
  device: { ip?: string; userAgent?: string }
}

/** The device flow's end: the device is signed in (or was refused: `aborted`). */
export interface DeviceDoneModel {
  client: ClientView | null
  aborted: boolean
}

/** RP-initiated logout: "Sign out of <site>?" */
export interface LogoutModel {
  action: string
  xsrf: string
  /** The client that asked, when known. */
  client: ClientView | null
}

/** After a logout with nowhere to go back to. */
export interface LoggedOutModel {
  client: ClientView | null
}

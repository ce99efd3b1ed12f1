/**
 * The adapter methods of the identity provider (Gatehouse extensions, issue #32): what
 * `oidc-provider` stores (clients registered at run time, grants, codes, tokens, its sessions and
 * interactions) kept as one kind of record, so that every process of the app shares them. They
 * join `Adapter` from here by declaration merging; `OIDC_ADAPTER_METHODS` names them for the core's
 * adapter wrapper and for `MissingAdapterMethods`. Contract checks: adapters/test-kit/identity-provider.ts.
 *
 * Rules the adapter keeps:
 * - a record is named by `(model, id)`; `putOidcRecord` replaces the whole record of that name
 *   (its `consumedAt` included);
 * - a record whose `expiresAt` has passed is never returned (by any read) and may be deleted at
 *   any time;
 * - `consumeOidcRecord` is atomic: of concurrent callers, exactly one gets `true` (the record
 *   existed, was not expired and was not yet consumed); the others get `false`;
 * - `deleteOidcGrant` deletes every record whose `grantId` is the one given, of every model.
 */
import type { Awaitable } from "../base-types.js"

export interface AdapterOidcRecord {
  /** oidc-provider's model name: `Grant`, `AccessToken`, `RefreshToken`, `AuthorizationCode`, `Client`, `Session`, `Interaction`, `DeviceCode`, ... (at most 64 characters). */
  model: string
  /** The record's id within its model (at most 255 characters). */
  id: string
  /** The model's payload as JSON text (may be large: a Session or Client, several KiB). */
  payload: string
  /** The grant it belongs to (tokens and codes), else null. */
  grantId: string | null
  /** A device code's user code, else null. */
  userCode: string | null
  /** A Session's uid, else null. */
  uid: string | null
  /** The user (account) it is about, else null. */
  accountId: string | null
  /** The client it was issued to (for a `Client` record, its own id), else null. */
  clientId: string | null
  /** null: never expires (a `Client`). */
  expiresAt: Date | null
  /** When it was consumed (single-use codes, rotated refresh tokens), else null. */
  consumedAt: Date | null
}

/** What `findOidcRecord` looks a record up by, besides its model. */
export type OidcRecordLookup = { uid: string } | { userCode: string }

/** What `listOidcRecords` filters a model's records by (both given: both must match). */
export interface OidcRecordFilter {
  accountId?: string
  clientId?: string
}

declare module "../adapters.js" {
  interface Adapter {
    /** Gatehouse extension (identity provider): stores the record, replacing one of the same model and id. */
    putOidcRecord?(record: AdapterOidcRecord): Awaitable<void>
    /** Gatehouse extension: the unexpired record of that model and id, or null. */
    getOidcRecord?(model: string, id: string): Awaitable<AdapterOidcRecord | null>
    /** Gatehouse extension: the unexpired record of that model with that uid or user code, or null. */
    findOidcRecord?(model: string, lookup: OidcRecordLookup): Awaitable<AdapterOidcRecord | null>
    /** Gatehouse extension, atomic: marks the record consumed at `at`; true for exactly one caller, false when missing, expired or already consumed. */
    consumeOidcRecord?(model: string, id: string, at: Date): Awaitable<boolean>
    /** Gatehouse extension: deletes the record (nothing when missing). */
    deleteOidcRecord?(model: string, id: string): Awaitable<void>
    /** Gatehouse extension: deletes every record of the grant, of every model. */
    deleteOidcGrant?(grantId: string): Awaitable<void>
    /** Gatehouse extension: the model's unexpired records matching the filter, oldest first (by insertion), at most 1000. */
    listOidcRecords?(model: string, filter: OidcRecordFilter): Awaitable<AdapterOidcRecord[]>
  }
}

export const OIDC_ADAPTER_METHODS = ["putOidcRecord", "getOidcRecord", "findOidcRecord", "consumeOidcRecord", "deleteOidcRecord", "deleteOidcGrant", "listOidcRecords"] as const

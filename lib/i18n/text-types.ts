/**
 * The shapes of a set of texts. Types only, apart from the catalogs: each capability's texts use
 * them, and the catalogs read those texts, so they import nothing back (no import cycle).
 */

/** Texts in another language for a set of English texts: exactly its keys. */
export type TextsOf<English> = { readonly [Key in keyof English]: string }

/** A capability's texts in every built-in language; the English names the keys. */
export type Texts<English> = {
  readonly en: English
  readonly de: TextsOf<English>
  readonly fr: TextsOf<English>
  readonly es: TextsOf<English>
  readonly ja: TextsOf<English>
}

/** Any set of texts: by language tag, then by key. */
export type TextsByLanguage = Readonly<Record<string, Readonly<Record<string, string>>>>

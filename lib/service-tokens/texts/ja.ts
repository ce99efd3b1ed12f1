/** Service tokens' texts in Japanese (polite form). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "error.ServiceTokenInvalid.heading": "トークンを受け付けられません",
  "error.ServiceTokenInvalid.message": "このサービス トークンはここでは無効です。有効期限が切れているか、別のサービス向けの可能性があります。",
  "error.ServiceTokenScopeDenied.heading": "権限がありません",
  "error.ServiceTokenScopeDenied.message": "あなた、またはあなたのキーが持っていない権限のトークンを要求しました。",
  "error.ServiceTokensUnavailable.heading": "利用できません",
  "error.ServiceTokensUnavailable.message": "このサイトはサービス トークンを発行していません。",
}

/** One-time email codes' Japanese texts (polite form, as lib/i18n/ja.ts). */
import type { TextsOf } from "../../i18n/text-types.js"
import type { en } from "./en.js"

export const ja: TextsOf<typeof en> = {
  "signin.error.EmailCodeExpired": "このコードは使用できなくなりました。有効期限が切れたか、メールがすでに使用されています。新しいメールをリクエストしてください。",
  "signin.error.EmailCodeLocked": "誤ったコードの入力が多すぎます。新しいメールをリクエストしてください。",
  "signin.error.EmailCodeNotBound": "コードはリクエストしたブラウザーでのみ使用できます。メール内のリンクを開くか、ここで新しいメールをリクエストしてください。",

  "verify.codeMessage": "ログイン用のコードとリンクを記載したメールをお送りしました。ここにコードを入力するか、リンクを開いてください。",
  "verify.codeMessageTo": "{email} に、ログイン用のコードとリンクを記載したメールをお送りしました。ここにコードを入力するか、リンクを開いてください。",

  "verify.code.label": "メールに記載されたコード",
  "verify.code.button": "ログイン",

  "verify.error.EmailCodeInvalid": "コードが正しくありません。確認して、もう一度お試しください。",

  "email.codeLabel": "ログイン用コード",

  "email.codeHelp": "ログインをリクエストしたページに、同じブラウザーで入力してください。コードは1回だけ使用でき、{codeExpires} に有効期限が切れます。",

  "email.linkIntro": "または、このボタンを押して {identifier} としてログインしてください。",

  "email.textLinkIntro": "または、次のリンクを開いて {identifier} としてログインしてください：",
}

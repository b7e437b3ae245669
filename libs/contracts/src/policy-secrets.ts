/**
 * Secret fields of a tenant policy are write-only (issue #29): a read (`GET /v1/policy`, the PUT's answer,
 * the dashboard's policy page) shows that one is set, never its value, whatever the key's role. The
 * secrets: `webhook.secretHeader.value` and `webhook.routingKey`. A PUT that sends the placeholder back
 * keeps the stored value, as long as the webhook URL is unchanged (else the secret must be sent again, so a
 * write cannot redirect a stored secret to a new receiver).
 */
import type { TenantPolicy } from './policy';

/** What a read shows in place of a secret that is set. */
export const SECRET_SET = '***set***';

/** The document with every secret field replaced by SECRET_SET (a copy; the argument is untouched). */
export function redactPolicySecrets<T extends Pick<TenantPolicy, 'webhook'>>(doc: T): T {
  const webhook = doc.webhook;
  if (!webhook || (webhook.secretHeader === undefined && webhook.routingKey === undefined)) return doc;
  return {
    ...doc,
    webhook: {
      ...webhook,
      ...(webhook.secretHeader !== undefined && { secretHeader: { ...webhook.secretHeader, value: SECRET_SET } }),
      ...(webhook.routingKey !== undefined && { routingKey: SECRET_SET }),
    },
  };
}

export type RestoredSecrets<T> = { ok: true; doc: T } | { ok: false; error: string; field: string };

/**
 * An incoming document whose secret fields carry SECRET_SET gets the stored values back. Refused (naming
 * the field) when nothing is stored, or when the webhook URL changed (a secret is not carried to a new URL).
 */
export function restorePolicySecrets<T extends Pick<TenantPolicy, 'webhook'>>(incoming: T, stored: Pick<TenantPolicy, 'webhook'> | undefined): RestoredSecrets<T> {
  const webhook = incoming.webhook;
  if (!webhook) return { ok: true, doc: incoming };
  const previous = stored?.webhook;
  const sameUrl = previous !== undefined && previous.url === webhook.url;
  const restored = { ...webhook };
  if (webhook.secretHeader?.value === SECRET_SET) {
    const field = 'webhook.secretHeader.value';
    if (previous?.secretHeader === undefined) return { ok: false, error: `${field}: ${SECRET_SET} stands for a stored secret, and none is stored; send the value`, field };
    if (!sameUrl) return { ok: false, error: `${field}: the webhook URL changed; send the secret's value again`, field };
    restored.secretHeader = { ...webhook.secretHeader, value: previous.secretHeader.value };
  }
  if (webhook.routingKey === SECRET_SET) {
    const field = 'webhook.routingKey';
    if (previous?.routingKey === undefined) return { ok: false, error: `${field}: ${SECRET_SET} stands for a stored secret, and none is stored; send the value`, field };
    if (!sameUrl) return { ok: false, error: `${field}: the webhook URL changed; send the secret's value again`, field };
    restored.routingKey = previous.routingKey;
  }
  return { ok: true, doc: { ...incoming, webhook: restored } };
}

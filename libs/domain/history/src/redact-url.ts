/**
 * A URL as it may appear in a log or an error (issue #29): webhook URLs carry credentials in their
 * userinfo and tokens in their path or query (Slack's /services/T…/B…/secret, `?token=`), so only the
 * scheme, host and port are kept; a path, query or fragment becomes `…`. Not a URL → `(invalid URL)`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(invalid URL)';
  }
  const hidden = parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '';
  return `${parsed.protocol}//${parsed.host}/${hidden ? '…' : ''}`;
}

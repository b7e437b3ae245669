/**
 * The gateway options' usage text, apart from the client so that `--help` loads no configuration code
 * (@wayfinder/config pulls in zod). The port is GATEWAY_DEFAULT_PORT, checked by
 * help-loads-no-implementation.spec.ts.
 */
export const GATEWAY_PORT_IN_USAGE = 7070;

export const GATEWAY_USAGE = `  --gateway URL  the gateway (env WAYFINDER_GATEWAY_URL, default http://127.0.0.1:${GATEWAY_PORT_IN_USAGE})
  --key KEY      the tenant's API key (env WAYFINDER_KEY); the key decides the tenant. Not needed in
                 local mode (no keys configured, loopback)`;

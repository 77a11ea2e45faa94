/**
 * What `fetch` refuses by itself, which Node's fetch rejects as `TypeError('fetch failed', { cause
 * })` like a network failure, though sending again can never succeed: URLs it never fetches over
 * the network (Fetch Standard: a scheme it does not fetch over the network, `ftp:`, `file:`,
 * `about:`…, and the blocked ports, "bad port", §2.9 "Port blocking": SMTP, IRC, …), and answers
 * the server gave that it will not follow (a redirect with `redirect: 'error'`, too many
 * redirects, a redirect it cannot follow with a stream body).
 */

/** The Fetch Standard's bad ports (the list undici's `badPorts` holds). */
const BAD_PORTS = new Set(
  (
    '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110 ' +
    '111 113 115 117 119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531 ' +
    '532 540 548 554 556 563 587 601 636 989 990 993 995 1719 1720 1723 2049 3659 4045 4190 ' +
    '5060 5061 6000 6566 6665 6666 6667 6668 6669 6679 6697 10080'
  ).split(' '),
);

/**
 * True when `fetch`'s `TypeError` for `url` is its own refusal, not a failure to reach the server:
 * `url` is not `http:`/`https:` (nor `data:`, which needs no network), or its port is blocked and
 * the error says so (`cause`: "bad port", as undici writes it) or, from the platform's own `fetch`
 * (`platform`), says nothing (a browser's bare `TypeError: Failed to fetch` carries no cause); a
 * transport of its own that reaches a blocked port fails otherwise, and is retried as any network
 * failure.
 */
export function fetchRefusedUrl(url: string, error: TypeError, platform = false): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  if (parsed.protocol === 'data:') return false;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return true;
  return (
    blockedPort(parsed) &&
    ((platform && error.cause === undefined) ||
      (error.cause as { message?: unknown } | null | undefined)?.message === 'bad port')
  );
}

/** True for a URL on a port `fetch` blocks (the Fetch Standard's bad ports: SMTP, IRC, X11, …). */
export function blockedPort(url: URL): boolean {
  return BAD_PORTS.has(url.port);
}

/**
 * The reasons undici's fetch gives for an answer it got and will not follow (its `makeNetworkError`
 * reasons): the server answered, and the same call gets the same answer. The empty reason is the
 * Fetch Standard's bare "network error" for an answer it cannot use (a redirect of a stream body,
 * HTTP-redirect fetch step 11; a 407 with no window).
 */
const REFUSED_ANSWERS = new Set([
  'unexpected redirect',
  'redirect count exceeded',
  'URL scheme must be a HTTP(S) scheme',
  'proxy authentication required',
  '',
]);

/**
 * True when `fetch`'s `TypeError` is its refusal of an answer the server gave (see
 * {@link REFUSED_ANSWERS}), or, for a call that asked for `redirect: 'error'`, a bare one (a
 * browser says "Failed to fetch" with no cause for a redirect it refuses as for a lost network: a
 * call that refuses redirects is taken at its word).
 */
export function fetchRefusedAnswer(error: unknown, redirect?: RequestRedirect): boolean {
  if (!(error instanceof TypeError)) return false;
  const { cause } = error;
  if (cause === undefined) return redirect === 'error';
  return (
    cause instanceof Error &&
    (cause as { code?: unknown }).code === undefined &&
    REFUSED_ANSWERS.has(cause.message)
  );
}

/** Most bytes of body a `keepalive` request may carry (Fetch Standard: the 64 KiB in-flight keepalive quota). */
const KEEPALIVE_QUOTA = 64 * 1024;

/**
 * True for a `keepalive` call whose body is over the quota a browser allows in flight: it refuses
 * it, sending nothing, with a bare `TypeError` (a body of unknown length, a stream, is not judged).
 */
export function overKeepaliveQuota(init: RequestInit | undefined): boolean {
  if (!init?.keepalive) return false;
  const { body } = init;
  const bytes =
    typeof body === 'string'
      ? new TextEncoder().encode(body).byteLength
      : body instanceof Blob
        ? body.size
        : body instanceof ArrayBuffer || ArrayBuffer.isView(body)
          ? body.byteLength
          : 0;
  return bytes > KEEPALIVE_QUOTA;
}

/**
 * Browser-safety headers of the app's pages. Pages get a nonce-based CSP:
 * only scripts carrying this response's nonce run (Next.js adds it to its own scripts), and
 * no other site may frame them. Every response (pages and APIs) gets nosniff, the referrer
 * policy and, when the app is served over https, HSTS.
 */
export function pageContentSecurityPolicy({ nonce, dev, formTargets = [] }: { nonce: string; dev: boolean; formTargets?: string[] }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonce-carrying ones load are trusted, nothing else.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React and the chart library set style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The app's own service worker (/sw.js) and manifest; nothing else may run as a worker.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Forms post to the app itself. form-action also governs every redirect after a submission,
    // so the OAuth consent page adds the origin its answer redirects to (the app's redirect_uri).
    ["form-action 'self'", ...formTargets].join(" "),
    "frame-ancestors 'none'",
  ].join("; ");
}

export function commonSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

// The page a browser gets while the server cannot reach its database (503 with Retry-After):
// it says so plainly and loads the page it was asked for again every few seconds, so it
// recovers by itself once the database is back. Plain HTML, no script (nothing for a CSP to
// block), in the app's colours.

/** Seconds between two tries, told to the browser (Retry-After, and the page's own reload). */
export const PAGE_RETRY_SECONDS = 5;

const TITLE = "Chorus can’t reach its database";
const MESSAGE = "Chorus can’t reach its database right now — retrying. This page reloads by itself; nothing you sent is lost and your drafts are kept on this device.";

/** The whole document. */
export function unavailablePage() {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${PAGE_RETRY_SECONDS}">
<meta name="robots" content="noindex">
<title>${TITLE} · Chorus</title>
<style>
  html, body { height: 100%; margin: 0; }
  body { display: flex; align-items: center; justify-content: center; padding: 16px; box-sizing: border-box;
    font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f8fafc; color: #0f172a; }
  main { width: 100%; max-width: 28rem; box-sizing: border-box; background: #fff; border: 1px solid #e2e8f0; border-radius: 12px;
    padding: 24px; text-align: center; box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); }
  h1 { font-size: 1.25rem; font-weight: 600; margin: 0; }
  p { font-size: 0.875rem; line-height: 1.5; color: #475569; margin: 8px 0 0; }
  a { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; margin-top: 24px; padding: 0 16px;
    border-radius: 6px; background: #178059; color: #fff; font-size: 0.875rem; font-weight: 500; text-decoration: none; }
  a:focus-visible { outline: 2px solid #0f172a; outline-offset: 2px; }
</style>
</head>
<body>
<main role="alert" aria-live="polite">
<h1>${TITLE}</h1>
<p>${MESSAGE}</p>
<a href="">Try again now</a>
</main>
</body>
</html>
`;
}

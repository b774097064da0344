/** Under a reply the server has not stored: why, and what can be done about it. */
export function UnsentNotice({ reason, onRetry, onDiscard }: { reason?: string; onRetry?: () => void; onDiscard?: () => void }) {
  return (
    <div className="mt-1 flex flex-col gap-1 text-xs text-red-800" data-testid="unsent">
      <p role="alert">
        <span className="font-semibold">Not sent.</span> {reason ?? "Chorus did not confirm this reply."}
      </p>
      <p className="flex gap-3">
        {onRetry ? (
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Retry
          </button>
        ) : null}
        {onDiscard ? (
          <button type="button" onClick={onDiscard} className="underline">
            Discard
          </button>
        ) : null}
      </p>
    </div>
  );
}

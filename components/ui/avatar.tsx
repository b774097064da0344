const palette = [
  "bg-brand-100 text-brand-700",
  "bg-sky-100 text-sky-800",
  "bg-amber-100 text-amber-800",
  "bg-violet-100 text-violet-800",
  "bg-rose-100 text-rose-800",
  "bg-teal-100 text-teal-800",
];

function hash(text: string) {
  let h = 0;
  for (const char of text) h = (h * 31 + char.charCodeAt(0)) | 0;
  return Math.abs(h);
}

/** Initials of a name's first two words; none for a bare number (a digit says nothing about a person). */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => [...word].find((char) => /\p{L}/u.test(char)) ?? "")
    .filter(Boolean)
    .slice(0, 2)
    .join("")
    .toUpperCase();
}

/** A person's round avatar: their initials, or a silhouette when only a phone number is known. */
export function Avatar({ name, className = "" }: { name: string; className?: string }) {
  const initials = initialsOf(name);
  return (
    <span aria-hidden data-user-content className={`grid shrink-0 place-items-center rounded-full font-semibold ${palette[hash(name) % palette.length]} ${className}`}>
      {initials || (
        <svg viewBox="0 0 24 24" className="h-3/5 w-3/5" fill="currentColor" data-testid="avatar-silhouette">
          <circle cx="12" cy="8" r="4" />
          <path d="M4 20c0-4 3.6-7 8-7s8 3 8 7z" />
        </svg>
      )}
    </span>
  );
}

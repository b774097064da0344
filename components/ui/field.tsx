import { useTranslations } from "next-intl";
import type { InputHTMLAttributes } from "react";

/** A labelled input with its error message announced to assistive technology. */
export function Field({
  label,
  name,
  error,
  hint,
  className = "",
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; error?: string; hint?: string }) {
  const id = props.id ?? `field-${name}`;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-md border bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 ${
          error ? "border-red-400" : "border-slate-300"
        }`}
        {...props}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A password being chosen: at least 10 characters, offered to the browser's password manager. */
export function NewPasswordField({ label, ...props }: Omit<Parameters<typeof Field>[0], "label" | "type"> & { label?: string }) {
  const t = useTranslations("forms");
  return <Field label={label ?? t("password")} type="password" required minLength={10} autoComplete="new-password" hint={t("passwordHint")} {...props} />;
}

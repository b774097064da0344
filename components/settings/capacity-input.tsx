/** How many open conversations someone may be handed automatically: 1 to 1000, empty for no limit. */
export function CapacityInput({
  id,
  value,
  onChange,
  disabled,
  placeholder,
  className,
}: {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  placeholder: string;
  className: string;
}) {
  return <input id={id} type="number" min={1} max={1000} inputMode="numeric" placeholder={placeholder} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} className={className} />;
}

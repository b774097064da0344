import { Card } from "@/components/ui/card";
import { SaveButton } from "./setting-save";

/** A settings page's rows in one card, named for screen readers, saying so when there are none. */
export function SettingsList<T extends { id: string }>({ label, empty, items, children }: { label: string; empty: string; items: T[]; children: (item: T) => React.ReactNode }) {
  return (
    <Card className="p-0">
      <ul aria-label={label} className="divide-y divide-slate-100">
        {items.length === 0 ? <li className="p-6 text-center text-sm text-slate-500">{empty}</li> : null}
        {items.map(children)}
      </ul>
    </Card>
  );
}

/** The form that adds a row, in its card: its fields, then Create (saying so while it saves). */
export function CreateForm({
  label,
  onSubmit,
  busy,
  canSubmit,
  createLabel,
  creatingLabel,
  children,
}: {
  label: string;
  onSubmit: (e: React.FormEvent) => void;
  busy: boolean;
  canSubmit: boolean;
  createLabel: string;
  creatingLabel: string;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-label={label}>
        {children}
        <div>
          <SaveButton busy={busy} disabled={!canSubmit} label={createLabel} busyLabel={creatingLabel} />
        </div>
      </form>
    </Card>
  );
}

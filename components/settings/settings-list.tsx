import { Card } from "@/components/ui/card";

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

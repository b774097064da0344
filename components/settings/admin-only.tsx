import { Card } from "@/components/ui/card";

export function AdminOnlyNotice({ what }: { what: string }) {
  return (
    <Card>
      <h1 className="text-lg font-semibold">Administrators only</h1>
      <p className="mt-1 text-sm text-slate-600">Only administrators can {what}. Ask an administrator of your account if you need a change here.</p>
    </Card>
  );
}

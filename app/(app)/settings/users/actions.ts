"use server";

import { revalidatePath } from "next/cache";
import { requireAdmin } from "@/lib/auth/current-user";
import { runAction } from "@/lib/server/action";
import { createUserInput, updateUserInput } from "@/lib/users/schemas";
import { createUser, deleteUser, updateUser } from "@/lib/users/users";

// Every action re-checks the role: an agent calling one directly gets a 403 result.
export async function inviteUserAction(form: FormData) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = createUserInput.parse(Object.fromEntries(["name", "email", "role", "password"].map((k) => [k, String(form.get(k) ?? "")])));
    const user = await createUser({ ctx, input });
    revalidatePath("/settings/users");
    return user;
  });
}

export async function changeRoleAction(id: string, role: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    const user = await updateUser({ ctx, id, input: updateUserInput.parse({ role }) });
    revalidatePath("/settings/users");
    return user;
  });
}

export async function removeUserAction(id: string) {
  return runAction(async () => {
    const ctx = await requireAdmin();
    await deleteUser({ ctx, id });
    revalidatePath("/settings/users");
  });
}

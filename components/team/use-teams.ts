"use client";

import { useEffect, useState } from "react";
import { requestJson } from "@/lib/client/api";

export type TeamItem = { id: string; name: string; members: string[] };

let cache: Promise<TeamItem[]> | null = null;

/** The account's teams, loaded once per page (a team made meanwhile shows after a reload). */
export function useTeams() {
  const [teams, setTeams] = useState<TeamItem[]>([]);
  useEffect(() => {
    let alive = true;
    cache ??= requestJson<{ data: TeamItem[] }>("GET", "/v1/teams?limit=100").then((r) => (r.ok ? r.data.data : []));
    void cache.then((list) => alive && setTeams(list));
    return () => {
      alive = false;
    };
  }, []);
  return teams;
}

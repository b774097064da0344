import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { prepareSpelling } from "@/lib/polish/corrections";
import { spellerLoadTimes, spellWords, startLoadingSpellers } from "@/lib/polish/spelling";

describe("the Hunspell dictionaries", () => {
  it("load off the thread that answers requests, and polishing never waits for them", async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const loading = startLoadingSpellers();
    // Asked before the Portuguese dictionary is loaded: no answer rather than a wait.
    const started = performance.now();
    expect(await spellWords({ language: "pt", words: ["uteis"] })).toBeNull();
    expect(await prepareSpelling({ text: "obrigado pela preferencia", language: "pt" })).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
    await loading;
    delay.disable();
    console.log(`polish dictionaries loaded in ${JSON.stringify(spellerLoadTimes)} ms; longest event-loop stall meanwhile ${Math.round(delay.max / 1e6)} ms`);
    // Loading Portuguese takes seconds of CPU; the request thread must not stall for any of it.
    expect(spellerLoadTimes.pt).toBeGreaterThan(0);
    expect(delay.max / 1e6).toBeLessThan(250);
  }, 120_000);

  it("answers a whole draft in two trips once loaded", async () => {
    await startLoadingSpellers();
    const started = performance.now();
    const fixes = await prepareSpelling({ text: "we recieved your order, it leaves on friday untill noon", language: "en" });
    expect(performance.now() - started).toBeLessThan(500);
    expect(fixes?.get("recieved")).toBeUndefined(); // written out by the engine's own list before the dictionary is asked
    expect(fixes?.get("friday")).toBe("Friday");
    expect(fixes?.get("untill")).toBe("until");
    expect(fixes?.has("order")).toBe(false);
  });
});

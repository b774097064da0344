import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PolishLanguage } from "./rules/language";

const spellerLanguages: PolishLanguage[] = ["en", "es", "pt"];
/** How long a polish waits for the dictionary's answer before polishing without spelling. */
const SPELLING_TIMEOUT_MS = 500;

// Hunspell (WASM) runs on its own thread: loading the Portuguese dictionary keeps a thread busy for
// seconds, and that thread must never be the one answering requests. The worker's source is given
// as text and requires the packages by absolute path, so no bundler has to understand it.
const workerSource = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const spellers = {};
parentPort.on("message", ({ id, language, words }) => {
  const speller = spellers[language];
  parentPort.postMessage({ type: "answer", id, results: speller ? words.map((word) => speller.spell(word)) : null });
});
(async () => {
  const started = performance.now();
  const factory = await require(workerData.hunspell).loadModule();
  parentPort.postMessage({ type: "loaded", language: "wasm", ms: performance.now() - started });
  for (const [language, folder] of workerData.dictionaries) {
    await new Promise((resolve) => setImmediate(resolve));
    const begin = performance.now();
    try {
      const aff = factory.mountBuffer(readFileSync(folder + "/index.aff"), language + ".aff");
      const dic = factory.mountBuffer(readFileSync(folder + "/index.dic"), language + ".dic");
      spellers[language] = factory.create(aff, dic);
      parentPort.postMessage({ type: "loaded", language, ms: performance.now() - begin });
    } catch (error) {
      parentPort.postMessage({ type: "failed", language, message: String((error && error.message) || error) });
    }
  }
})().catch((error) => parentPort.postMessage({ type: "failed", language: "wasm", message: String((error && error.message) || error) }));
`;

type WorkerMessage =
  | { type: "loaded"; language: PolishLanguage | "wasm"; ms: number }
  | { type: "failed"; language: PolishLanguage | "wasm"; message: string }
  | { type: "answer"; id: number; results: boolean[] | null };

const loaded = new Set<PolishLanguage>();
/** Milliseconds each dictionary took to load in this process (the WASM module under `wasm`). */
export const spellerLoadTimes: Partial<Record<PolishLanguage | "wasm", number>> = {};
const pending = new Map<number, (results: boolean[] | null) => void>();
let nextId = 0;
let worker: Worker | null = null;
let allLoaded: Promise<void> | null = null;

/**
 * Starts loading the Hunspell dictionaries once, on a worker thread. Nothing waits for it: until a
 * language is loaded, polishing in it runs without spelling. The promise settles when all are loaded
 * (or have failed), for tests and measurements.
 */
export function startLoadingSpellers(): Promise<void> {
  allLoaded ??= new Promise<void>((resolve) => {
    let settled = 0;
    const settle = () => {
      settled += 1;
      if (settled === spellerLanguages.length) resolve();
    };
    try {
      const require = createRequire(path.join(process.cwd(), "package.json"));
      // The dictionary packages export only their ESM entry; their files sit next to it.
      const dictionaries = spellerLanguages.map((language) => [language, path.dirname(require.resolve(`dictionary-${language}`))]);
      worker = new Worker(workerSource, { eval: true, workerData: { hunspell: require.resolve("hunspell-asm"), dictionaries } });
    } catch (error) {
      console.warn(`polishing: spelling is off (${error instanceof Error ? error.message : String(error)})`);
      resolve();
      return;
    }
    worker.unref();
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "answer") {
        pending.get(message.id)?.(message.results);
        pending.delete(message.id);
      } else if (message.type === "loaded") {
        spellerLoadTimes[message.language] = Math.round(message.ms);
        if (message.language !== "wasm") {
          loaded.add(message.language);
          settle();
        }
      } else {
        console.warn(`polishing: the ${message.language} dictionary could not be loaded (${message.message}); polishing runs without it`);
        if (message.language === "wasm") resolve();
        else settle();
      }
    });
    worker.on("error", (error) => {
      console.warn(`polishing: spelling is off (${error.message})`);
      for (const answer of pending.values()) answer(null);
      pending.clear();
      loaded.clear();
      resolve();
    });
  });
  return allLoaded;
}

/**
 * Whether each word is spelled correctly, in one trip to the dictionary thread; null when the
 * language's dictionary is not loaded yet or does not answer within SPELLING_TIMEOUT_MS.
 */
export async function spellWords({ language, words }: { language: PolishLanguage; words: string[] }): Promise<boolean[] | null> {
  // The dictionaries (about 50 MiB) load when spelling is first asked for, not with the server:
  // a server nobody polishes on does not keep them.
  void startLoadingSpellers();
  if (!worker || !loaded.has(language)) return null;
  if (words.length === 0) return [];
  const id = ++nextId;
  const active = worker;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve(null);
    }, SPELLING_TIMEOUT_MS);
    pending.set(id, (results) => {
      clearTimeout(timer);
      resolve(results);
    });
    active.postMessage({ id, language, words });
  });
}

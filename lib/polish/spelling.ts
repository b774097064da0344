import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { PolishLanguage } from "./dictionaries";

/** A loaded Hunspell dictionary: `spell` answers in tens of microseconds. */
export type Speller = { spell: (word: string) => boolean };
export type Spellers = Partial<Record<PolishLanguage, Speller>>;

const spellerLanguages: PolishLanguage[] = ["en", "es", "pt"];
const loaded: Spellers = {};
/** Milliseconds each dictionary took to load on this process (the WASM module under `wasm`). */
export const spellerLoadTimes: Partial<Record<PolishLanguage | "wasm", number>> = {};
let loading: Promise<void> | null = null;

// The dictionary packages only export their ESM entry; their files sit next to it.
async function readDictionary(language: PolishLanguage): Promise<{ aff: Buffer; dic: Buffer }> {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const folder = path.dirname(require.resolve(`dictionary-${language}`));
  const [aff, dic] = await Promise.all([readFile(path.join(folder, "index.aff")), readFile(path.join(folder, "index.dic"))]);
  return { aff, dic };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Loads the Hunspell dictionaries once, in the background, one language per turn of the event loop.
 * Callers never wait for it: until a language is loaded, polishing in it runs without spelling.
 */
export function startLoadingSpellers(): Promise<void> {
  loading ??= (async () => {
    const started = performance.now();
    const { loadModule } = await import("hunspell-asm");
    const factory = await loadModule();
    spellerLoadTimes.wasm = Math.round(performance.now() - started);
    for (const language of spellerLanguages) {
      await nextTurn();
      const begin = performance.now();
      try {
        const { aff, dic } = await readDictionary(language);
        const hunspell = factory.create(factory.mountBuffer(aff, `${language}.aff`), factory.mountBuffer(dic, `${language}.dic`));
        loaded[language] = { spell: (word) => hunspell.spell(word) };
        spellerLoadTimes[language] = Math.round(performance.now() - begin);
      } catch (error) {
        console.warn(`polishing: the ${language} dictionary could not be loaded (${error instanceof Error ? error.message : String(error)}); polishing in it runs without spelling`);
      }
    }
  })().catch((error: unknown) => {
    console.warn(`polishing: spelling is off (${error instanceof Error ? error.message : String(error)})`);
  });
  return loading;
}

/** The dictionaries loaded so far; starts loading them on first use. Never waits. */
export function readySpellers(): Spellers {
  void startLoadingSpellers();
  return { ...loaded };
}

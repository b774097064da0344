import { getEnv } from "./env";

/** An OpenAI-compatible chat-completions server: any provider, or a local llama.cpp / Ollama. */
export type LlmConfig = { baseUrl: string; apiKey: string; model: string };

/**
 * The configured language model: LLM_BASE_URL, LLM_API_KEY and LLM_MODEL, or the older
 * POLISH_LLM_* names when none of the new ones is set. Null when not all three are set.
 */
export function llmConfig(): LlmConfig | null {
  const env = getEnv();
  const usesNewNames = Boolean(env.LLM_BASE_URL || env.LLM_API_KEY || env.LLM_MODEL);
  const baseUrl = usesNewNames ? env.LLM_BASE_URL : env.POLISH_LLM_BASE_URL;
  const apiKey = usesNewNames ? env.LLM_API_KEY : env.POLISH_LLM_API_KEY;
  const model = usesNewNames ? env.LLM_MODEL : env.POLISH_LLM_MODEL;
  if (!baseUrl || !apiKey || !model) return null;
  return { baseUrl: baseUrl.replace(/\/+$/, ""), apiKey, model };
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/**
 * One chat completion: the text of the first choice. Throws on a network error, a non-2xx status,
 * a body that is not the expected JSON, or an empty answer; the caller decides what to fall back
 * to. The API key only travels in the Authorization header and never appears in an error.
 */
export async function chatCompletion({
  config,
  messages,
  signal,
  temperature = 0.2,
}: {
  config: LlmConfig;
  messages: ChatMessage[];
  signal: AbortSignal;
  temperature?: number;
}): Promise<string> {
  const response = await fetch(`${config.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify({ model: config.model, temperature, messages }),
    signal,
    redirect: "error",
  });
  if (!response.ok) throw new Error(`the language model answered ${response.status}`);
  const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string" || !content.trim()) throw new Error("the language model gave an empty answer");
  return content;
}

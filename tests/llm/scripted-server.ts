import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** One scripted answer: a status and JSON body (and headers), or `hang` (the connection stays open, unanswered). */
export type ServerReply = { status: number; body: unknown; headers?: Record<string, string> } | "hang";

/** A request as the server saw it. */
export interface SeenRequest {
  path: string;
  body: Record<string, unknown>;
}

/** A Chat Completions answer: text content, or tool calls (`arguments` as the raw string the model sent). */
export function chat(content: string | null, opts: { toolCalls?: Array<{ id: string; name: string; arguments: string }>; refusal?: string; usage?: [number, number] } = {}): ServerReply {
  const [p, c] = opts.usage ?? [12, 3];
  const message: Record<string, unknown> = { role: "assistant", content };
  if (opts.toolCalls) message.tool_calls = opts.toolCalls.map((t) => ({ id: t.id, type: "function", function: { name: t.name, arguments: t.arguments } }));
  if (opts.refusal) message.refusal = opts.refusal;
  return {
    status: 200,
    body: { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4.1", choices: [{ index: 0, message, finish_reason: opts.toolCalls ? "tool_calls" : "stop" }], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } },
  };
}

/**
 * An OpenAI-compatible server on 127.0.0.1 that plays a script: a list of replies in order, or a
 * function of the request. One request per connection (`Connection: close`), so keep-alive reuse
 * never makes a count flaky. Records every request's JSON body.
 */
export class ScriptedServer {
  readonly requests: SeenRequest[] = [];
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #script: (req: SeenRequest, n: number) => ServerReply;
  #port = 0;

  private constructor(script: ServerReply[] | ((req: SeenRequest, n: number) => ServerReply)) {
    this.#script = Array.isArray(script)
      ? (_req, n) => {
          const r = script[n];
          if (r === undefined) return { status: 599, body: { error: { message: `scripted server: no reply for request ${n + 1}` } } };
          return r;
        }
      : script;
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#server.on("connection", (s) => {
      this.#sockets.add(s);
      s.on("close", () => this.#sockets.delete(s));
    });
  }

  /** Start a server playing `script`. */
  static async start(script: ServerReply[] | ((req: SeenRequest, n: number) => ServerReply)): Promise<ScriptedServer> {
    const s = new ScriptedServer(script);
    await new Promise<void>((resolve) => s.#server.listen(0, "127.0.0.1", resolve));
    s.#port = (s.#server.address() as AddressInfo).port;
    return s;
  }

  /** The base URL to configure (`base_url`). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  /** Stop, dropping connections left hanging. */
  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const seen: SeenRequest = { path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown> };
    this.requests.push(seen);
    const reply = this.#script(seen, this.requests.length - 1);
    if (reply === "hang") return;
    res.writeHead(reply.status, { "content-type": "application/json", connection: "close", ...(reply.headers ?? {}) });
    res.end(JSON.stringify(reply.body));
  }
}

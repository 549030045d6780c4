import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the stand-in received it. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  authorization: string | undefined;
}

/** The items of the release the request carried (parsed from between the untrusted-data markers). */
export function requestItems(
  request: ChatRequest,
): Array<{ id: string; section: string; text: string; component?: string; pr_title?: string; pr_body_excerpt?: string }> {
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const data = /<untrusted-data>\n([\s\S]*)\n<\/untrusted-data>/.exec(user);
  return data ? (JSON.parse(data[1]!) as ReturnType<typeof requestItems>) : [];
}

/**
 * What the stand-in does with one request: answer with this message content (any text: the model's
 * JSON, or something malformed), answer with an HTTP status, or never answer (a stuck model).
 */
export type Script = { content: string } | { status: number; body?: string } | { hang: true };
export type Responder = (request: ChatRequest) => Script;

/** A model's JSON answer as message content. */
export const answer = (value: { introduction: Array<{ text: string; items: string[] }>; items?: Array<{ id: string; text: string }> }): Script => ({
  content: JSON.stringify({ items: [], ...value }),
});

/**
 * An echoing model for the evaluation and smoke runs: one sentence per section (its first item's
 * wording, cited), no rewordings. Not clever, but it speaks the protocol and cites what it was given.
 */
export const echoResponder: Responder = (request) => {
  const items = requestItems(request);
  const bySection = new Map<string, (typeof items)[number]>();
  for (const item of items) if (!bySection.has(item.section)) bySection.set(item.section, item);
  return answer({
    introduction: [...bySection.values()].slice(0, 3).map((i) => ({ text: `${i.text.replace(/^./, (c) => c.toUpperCase())}.`, items: [i.id] })),
  });
};

/**
 * The echoing model, plus one invented claim per release (a CVE its items never mention, citing its first
 * item): what the evaluation's stand-in answers, so its report shows verification dropping something.
 */
export const echoAndInventResponder: Responder = (request) => {
  const echoed = JSON.parse((echoResponder(request) as { content: string }).content) as { introduction: Array<{ text: string; items: string[] }> };
  const first = requestItems(request)[0];
  if (first) echoed.introduction.push({ text: 'This release also fixes CVE-2099-0001.', items: [first.id] });
  return answer({ introduction: echoed.introduction.slice(0, 3) });
};

/**
 * A local stand-in for an OpenAI-compatible server (`POST /v1/chat/completions`), on 127.0.0.1, with
 * scripted answers: tests set `respond` per case and read `requests`.
 */
export class FakeLlm {
  readonly requests: ChatRequest[] = [];
  respond: Responder = echoResponder;
  private server: Server | undefined;
  private readonly hanging = new Set<import('node:http').ServerResponse>();

  get baseUrl(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req).then((script) => {
        if (!script) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        } else if ('hang' in script) {
          this.hanging.add(res);
          res.on('close', () => this.hanging.delete(res));
        } else if ('status' in script) {
          res.writeHead(script.status, { 'content-type': 'application/json' }).end(script.body ?? '{"error":{"message":"internal error"}}');
        } else {
          const body = {
            id: `chatcmpl-${this.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: this.requests.at(-1)?.model ?? 'fake',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: script.content } }],
            usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
          };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private async handle(req: IncomingMessage): Promise<Script | null> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return null;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<ChatRequest, 'authorization'>;
    const request: ChatRequest = { ...body, authorization: req.headers.authorization };
    this.requests.push(request);
    return this.respond(request);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

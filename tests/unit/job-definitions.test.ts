import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { defineJob, type JobKind, type JobPayloads, parsePayload } from "@/lib/jobs/define";
import type { enqueueJob, enqueueJobs, NewJob } from "@/lib/jobs/enqueue";
import type { FullJobRegistry, RegisteredKind } from "@/lib/server/job-registry";

describe("job definitions", () => {
  it("type every payload by its kind: a wrong payload does not compile", () => {
    type Enqueued = Parameters<typeof enqueueJob<"message.send">>[1];
    expectTypeOf<Enqueued["payload"]>().toEqualTypeOf<JobPayloads["message.send"]>();
    expectTypeOf<{ kind: "message.send"; payload: { messageId: string } }>().toExtend<NewJob>();
    expectTypeOf<{ kind: "message.send"; payload: { n: number } }>().not.toExtend<NewJob>();
    // A payload of one kind under another kind's name is refused too.
    expectTypeOf<{ kind: "sla.check"; payload: { messageId: string } }>().not.toExtend<NewJob>();
    expectTypeOf<{ kind: "no.such-kind"; payload: object }>().not.toExtend<NewJob>();

    const typeErrors = (enqueue: typeof enqueueJob, enqueueMany: typeof enqueueJobs) => {
      // @ts-expect-error message.send takes a messageId, not `n`.
      void enqueue(null!, { kind: "message.send", payload: { n: 1 } });
      // @ts-expect-error conversation.wake needs its conversationId.
      void enqueue(null!, { kind: "conversation.wake", payload: { accountId: "acc_1" } });
      // @ts-expect-error each item of a list is checked against its own kind.
      void enqueueMany(null!, [{ kind: "message.send", payload: { messageId: "msg_1" } }, { kind: "push.send", payload: { messageId: "msg_1" } }]);
      void enqueue(null!, { kind: "conversation.wake", payload: { accountId: "acc_1", conversationId: "conv_1" }, runAt: new Date() });
    };
    expect(typeof typeErrors).toBe("function");
  });

  it("list in the registry exactly the kinds the domains declare, each with its own payload type", () => {
    expectTypeOf<RegisteredKind>().toEqualTypeOf<JobKind>();
    expectTypeOf<FullJobRegistry["campaign.dispatch"]["kind"]>().toEqualTypeOf<"campaign.dispatch">();
    expectTypeOf<Parameters<FullJobRegistry["sla.check"]["handler"]>[0]>().toEqualTypeOf<JobPayloads["sla.check"]>();
  });

  it("parse a stored payload with the kind's schema, or give the reason it will never run", () => {
    const job = defineJob({ kind: "example.kind", schema: z.object({ id: z.string().min(1), count: z.number().default(1) }), handler: async () => undefined });
    expect(parsePayload(job, { id: "a" })).toEqual({ ok: true, payload: { id: "a", count: 1 } });
    expect(parsePayload(job, { id: 7 })).toEqual({ ok: false, failed: expect.stringMatching(/^invalid example\.kind payload: id: /) });
    expect(parsePayload(job, "not an object")).toEqual({ ok: false, failed: expect.stringMatching(/^invalid example\.kind payload: /) });
  });
});

import net from "node:net";

export type ReceivedMail = { to: string[]; subject: string; text: string; raw: string };

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`) back to text. */
function decodeHeader(value: string): string {
  return value.replace(/\r?\n[ \t]/g, " ").replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*(?==\?)?/gi, (_, kind: string, data: string) =>
    kind.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const soft = value.replace(/=\r?\n/g, "");
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*((?:.*)(?:\\r?\\n[ \\t].*)*)`, "im").exec(head)?.[1] ?? "";
  const encoding = header("Content-Transfer-Encoding").trim().toLowerCase();
  const text = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { to, subject: decodeHeader(header("Subject")), text: text.replace(/\r\n/g, "\n"), raw };
}

/** A minimal SMTP server on loopback that keeps every message it is given (no TLS, no auth). */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = "";
    let inData = false;
    let to: string[] = [];
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          mails.push(parse(buffer.slice(0, end).replace(/^\.\./gm, "."), to));
          buffer = buffer.slice(end + 5);
          inData = false;
          to = [];
          socket.write("250 OK\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-test\r\n250 8BITMIME\r\n");
        else if (verb === "HELO" || verb === "MAIL" || verb === "RSET" || verb === "NOOP") socket.write("250 OK\r\n");
        else if (verb === "RCPT") {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          socket.write("250 OK\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 bye\r\n");
          return;
        } else socket.write("502 not implemented\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

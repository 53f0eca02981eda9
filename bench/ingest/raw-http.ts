/**
 * A minimal HTTP/1.1 client for the events benchmark's sender: one keep-alive TCP connection per request in
 * flight, one request at a time on each (no pipelining), requests written as bytes and answers parsed just
 * enough to get the status and skip the body (Content-Length or chunked). Node's http client costs several
 * times the CPU per request, and the sender shares the two cores with the server it measures; this one sends
 * the same requests on the wire (method, path, Host, Content-Type, Content-Length, User-Agent, Slack's
 * signature headers, body).
 */
import net from 'node:net';

export type RawRequest = { path: string; headers: Record<string, string | number>; body: string };

export class RawConnection {
  private socket: net.Socket | undefined;
  private buf = Buffer.alloc(0);
  private waiting: { resolve: (status: number) => void; reject: (err: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private connect(): net.Socket {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
      this.parse();
    });
    const fail = (err: Error) => {
      this.socket = undefined;
      this.buf = Buffer.alloc(0);
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed by the server')));
    return socket;
  }

  /** Parses one complete answer from the buffer, if there is one. */
  private parse(): void {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let total: number;
    if (length) total = end + 4 + Number(length[1]);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const last = this.buf.indexOf('0\r\n\r\n', end + 4);
      if (last < 0) return;
      total = last + 5;
    } else total = end + 4;
    if (this.buf.length < total) return;
    this.buf = this.buf.subarray(total);
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve(status);
  }

  /** Sends one request; resolves with the answer's status code. */
  request(r: RawRequest): Promise<number> {
    this.socket ??= this.connect();
    let head = `POST ${r.path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`;
    for (const [k, v] of Object.entries(r.headers)) head += `${k}: ${v}\r\n`;
    head += `Content-Length: ${Buffer.byteLength(r.body)}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket!.write(head + r.body);
    });
  }

  close(): void {
    this.socket?.removeAllListeners('close');
    this.socket?.destroy();
    this.socket = undefined;
  }
}

// A minimal static file server for the browser page (target/e2e/web): module scripts
// and fetch() need http://, not file://. Used by the browser test and by
// `cargo xtask e2e browser`. Serves only files under the given folder, on 127.0.0.1.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".jsonl": "text/plain; charset=utf-8",
  ".map": "application/json",
};

/** Starts serving `dir` on 127.0.0.1:`port` (0 = any free port); resolves to the server. */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end("outside the served folder");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir = ".", port = "8080"] = process.argv.slice(2);
  const server = await serve(dir, Number(port));
  const { port: p } = server.address();
  console.log(`Serving ${resolve(dir)} on http://127.0.0.1:${p}/ (Ctrl-C to stop)`);
}

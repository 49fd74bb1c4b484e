// Absolute paths in POSIX or Windows form.

function isAsciiLetter(c: number): boolean {
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x7a;
}

/**
 * Says whether `p` is absolute: POSIX (`/...`), a Windows drive path (`C:\...`,
 * `C:/...`) or a UNC path (`\\server\share...` with a non-empty server and share).
 */
export function isAbsolutePath(p: string): boolean {
  const c0 = p.charCodeAt(0);
  if (c0 === 0x2f) return true;
  if (p.length >= 3 && isAsciiLetter(c0) && p.charCodeAt(1) === 0x3a) {
    const c2 = p.charCodeAt(2);
    if (c2 === 0x5c || c2 === 0x2f) return true;
  }
  if (p.startsWith("\\\\")) {
    const server = p.indexOf("\\", 2);
    if (server < 0) return false; // no share at all
    const shareEnd = p.indexOf("\\", server + 1);
    const share = shareEnd < 0 ? p.length - server - 1 : shareEnd - server - 1;
    return server > 2 && share > 0;
  }
  return false;
}

/** Explains why `p` is not absolute, for an error message. */
export function whyNotAbsolute(p: string): string {
  if (p === "") return "the path is empty; give an absolute path such as `/workspace/project`";
  const c0 = p.charCodeAt(0);
  if (p.length >= 2 && isAsciiLetter(c0) && p.charCodeAt(1) === 0x3a) {
    const drive = p.charAt(0);
    return `\`${p}\` is relative to the current directory of drive ${drive}:; write \`${drive}:\\...\``;
  }
  if (c0 === 0x5c) return `\`${p}\` has no drive or server; write \`C:\\...\` or \`\\\\server\\share\\...\``;
  return `\`${p}\` is relative; paths here must be absolute (\`/...\`, \`C:\\...\` or \`\\\\server\\share\\...\`)`;
}

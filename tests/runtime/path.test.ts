// Tests of absolute paths: POSIX or Windows form, the same cases as schema/tests/wire_rules.rs.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isAbsolutePath, whyNotAbsolute } from "../../templates/typescript/runtime/path.js";

describe("every supplied cwd must be absolute in POSIX or Windows form", () => {
  for (const good of ["/", "/workspace/project", "C:\\work", "c:/work", "\\\\server\\share", "\\\\server\\share\\dir", "//net/x", "z:\\", "/é"]) {
    test(`${JSON.stringify(good)} is absolute`, () => {
      assert.equal(isAbsolutePath(good), true);
    });
  }
  for (const bad of ["", "src", "./src", "C:", "C:src", "\\src", "\\\\server", "\\\\server\\", "~/x", "1:\\x", "\\\\\\share", "é:/x", " /x"]) {
    test(`${JSON.stringify(bad)} is relative`, () => {
      assert.equal(isAbsolutePath(bad), false);
      assert.ok(whyNotAbsolute(bad).length > 0);
    });
  }
});

describe("the reason says what to write instead", () => {
  test("empty", () => {
    assert.match(whyNotAbsolute(""), /the path is empty/);
  });
  test("drive-relative", () => {
    assert.equal(whyNotAbsolute("C:src"), "`C:src` is relative to the current directory of drive C:; write `C:\\...`");
    assert.match(whyNotAbsolute("d:"), /drive d:/);
  });
  test("rooted without a drive", () => {
    assert.match(whyNotAbsolute("\\src"), /has no drive or server/);
    assert.match(whyNotAbsolute("\\\\server"), /has no drive or server/);
  });
  test("relative", () => {
    assert.match(whyNotAbsolute("src"), /`src` is relative; paths here must be absolute/);
  });
});

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { kitPath } from "../../protocol/kit-root.js";

/**
 * A broker's repository as a team sets it up to gate on the kit (docs/implementers.md, "A CI gate"):
 * the kit's tarball kept in vendor/, package.json and package-lock.json naming it, a baseline, the
 * broker's sources and its build. What `npm install --save-dev ./vendor/…tgz` would write online is
 * written here from the kit's own package-lock.json, which pins every package the kit brings.
 */

interface LockEntry {
  version?: string;
  dev?: boolean;
  [key: string]: unknown;
}
interface Lock {
  packages: Record<string, LockEntry>;
}

/**
 * `npm pack` of this checkout, without its `prepare`: a build would replace dist/ under the tests
 * running beside this one, so the caller checks first that dist/ is fresh.
 */
export function packKit(into: string): string {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", into], { cwd: kitPath(), encoding: "utf8" });
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  return path.join(into, packed!.filename);
}

const integrityOf = (file: string) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;

/**
 * The lock file npm writes when a repository adds the kit's tarball as a development dependency:
 * the kit at node_modules/lomi-conformance-kit, the packages it needs at run time hoisted beside
 * it, exactly as the kit's own lock resolves them (every one a development dependency here).
 */
export function adopterLock(name: string, repo: string, tarball: string): string {
  const kit = JSON.parse(readFileSync(kitPath("package-lock.json"), "utf8")) as Lock;
  const root = kit.packages[""]!;
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name, version: "1.0.0", devDependencies: { [root.name as string]: spec } },
    [`node_modules/${root.name as string}`]: {
      version: root.version,
      resolved: spec,
      integrity: integrityOf(path.join(repo, tarball)),
      dev: true,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  for (const [at, entry] of Object.entries(kit.packages)) if (at !== "" && !entry.dev) packages[at] = { ...entry, dev: true };
  return `${JSON.stringify({ name, version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/**
 * better-sqlite3's install takes a prebuilt binary before it compiles (prebuild-install, then
 * node-gyp); offline it finds one in npm_config_better_sqlite3_local_prebuilds. This puts the
 * binary the kit's own install built there, as a prebuild tarball, so the scratch install does not
 * spend a minute compiling the same sources again. Without it the install compiles, only slower.
 */
export function localPrebuilds(dir: string): Record<string, string> {
  const addon = kitPath("node_modules/better-sqlite3/build/Release/better_sqlite3.node");
  const { version } = JSON.parse(readFileSync(kitPath("node_modules/better-sqlite3/package.json"), "utf8")) as { version: string };
  const stage = path.join(dir, "stage");
  mkdirSync(path.join(stage, "build/Release"), { recursive: true });
  copyFileSync(addon, path.join(stage, "build/Release/better_sqlite3.node"));
  const tarball = path.join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  const tar = spawnSync("tar", ["-czf", tarball, "-C", stage, "build"], { encoding: "utf8" });
  if (tar.status !== 0) throw new Error(`tar could not pack the prebuilt better-sqlite3: ${tar.stderr}`);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/** Writes files (path relative to `root` → content) as a repository's checkout holds them. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

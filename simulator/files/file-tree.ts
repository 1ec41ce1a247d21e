import { createHash } from "node:crypto";
import path from "node:path";
import { LomiError } from "../../protocol/errors.js";
import { WorldState } from "../world-state.js";

export interface FileNode {
  kind: "file";
  bytes: Buffer;
  writable: boolean;
}
export type TreeNode = FileNode | { kind: "directory" };

/** The project root's path. */
export const ROOT = "";

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A project-relative path, normalized ("" is the root); one that leaves the project is OUTSIDE_PROJECT. */
export function projectPath(raw: string, field: string): string {
  WorldState.requireInsideProject(raw, field);
  const normal = path.posix.normalize(raw === "" ? "." : raw).replace(/\/+$/, "");
  return normal === "." || normal === "" ? ROOT : normal;
}

export function parentOf(p: string): string {
  const dir = path.posix.dirname(p);
  return dir === "." ? ROOT : dir;
}

export const nameOf = (p: string) => path.posix.basename(p);

/** Sorts paths by UTF-16 code units: the same order on every machine. */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A compare-and-set check: the revision the caller decided on must be the current one. */
export function requireSameRevision(expected: string, current: string, field: string, what: string): void {
  if (expected !== current) {
    throw new LomiError("REVISION_CONFLICT", `${field} is stale: ${what} has changed since it was observed. Read it again for the current revision.`, {
      field,
      currentRevision: current,
    });
  }
}

/** p lies strictly below dir. */
export function isBelow(p: string, dir: string): boolean {
  return dir === ROOT ? p !== ROOT : p.startsWith(`${dir}/`);
}

const notFound = (message: string, field: string) => new LomiError("NOT_FOUND", message, { field });

/**
 * One project's files and directories, keyed by normalized path. Revisions are computed from the
 * content on every read, so they can never drift from it (docs/decisions.md says what each hashes).
 */
export class FileTree {
  private readonly nodes = new Map<string, TreeNode>([[ROOT, { kind: "directory" }]]);

  node(p: string): TreeNode | undefined {
    return this.nodes.get(p);
  }

  file(p: string, field: string): FileNode {
    const node = this.nodes.get(p);
    if (node?.kind !== "file") throw notFound(node ? `${JSON.stringify(p)} is a directory, not a file.` : `No file at ${JSON.stringify(p)}.`, field);
    return node;
  }

  directory(p: string, field: string): void {
    const node = this.nodes.get(p);
    if (node?.kind !== "directory") throw notFound(node ? `${JSON.stringify(p)} is a file, not a directory.` : `No directory at ${JSON.stringify(p)}.`, field);
  }

  /** The direct entries of a directory, sorted by name. */
  children(dir: string): string[] {
    return [...this.nodes.keys()].filter((p) => p !== ROOT && parentOf(p) === dir).sort(byCodeUnits);
  }

  /** Every path strictly below a directory. */
  below(dir: string): string[] {
    return [...this.nodes.keys()].filter((p) => isBelow(p, dir));
  }

  /** Writes a file whose parent directory exists; an unwritable file is PERMISSION_DENIED. */
  writeFile(p: string, bytes: Buffer, field: string): { created: boolean } {
    const node = this.nodes.get(p);
    if (node?.kind === "directory") throw notFound(`${JSON.stringify(p)} is a directory, not a file.`, field);
    if (node && !node.writable) throw new LomiError("PERMISSION_DENIED", `${JSON.stringify(p)} cannot be written (read-only on disk).`, { field });
    if (!node) this.directory(parentOf(p), field);
    this.nodes.set(p, { kind: "file", bytes: Buffer.from(bytes), writable: true });
    return { created: !node };
  }

  /** Creates a directory and any missing parents (seeding), or one directory whose parent exists. */
  makeDirectory(p: string, parents: boolean): void {
    if (this.nodes.has(p)) {
      if (parents && this.nodes.get(p)!.kind === "directory") return;
      throw new LomiError("ALREADY_EXISTS", `${JSON.stringify(p)} already exists.`, { field: "path" });
    }
    if (parents && p !== ROOT) this.makeDirectory(parentOf(p), true);
    this.directory(parentOf(p), "path");
    this.nodes.set(p, { kind: "directory" });
  }

  /** Moves an entry and everything below it. */
  move(from: string, to: string): void {
    const moved = [from, ...this.below(from)];
    const nodes = moved.map((p) => [p, this.nodes.get(p)!] as const);
    for (const p of moved) this.nodes.delete(p);
    for (const [p, node] of nodes) this.nodes.set(to + p.slice(from.length), node);
  }

  /** Deletes an entry and everything below it; answers how many entries went. */
  remove(p: string): number {
    const gone = [p, ...this.below(p)];
    for (const q of gone) this.nodes.delete(q);
    return gone.length;
  }

  protect(p: string): void {
    this.file(p, "path").writable = false;
  }

  // Revisions -------------------------------------------------------------------------------------

  diskRevision(p: string): string {
    return sha256Hex(this.file(p, "path").bytes);
  }

  /** The entry's kind, path and state: a file's diskRevision or a directory's directoryRevision. */
  entryRevision(p: string): string {
    const node = this.nodes.get(p)!;
    const state = node.kind === "file" ? sha256Hex(node.bytes) : this.directoryRevision(p);
    return sha256Hex(JSON.stringify(["lomi-entry/1", node.kind, p, state]));
  }

  /** The directory's path and its entries' names and entry revisions: any change below it moves it. */
  directoryRevision(dir: string): string {
    return sha256Hex(JSON.stringify(["lomi-directory/1", dir, this.children(dir).map((c) => [nameOf(c), this.entryRevision(c)])]));
  }

  entries(): Array<[string, TreeNode]> {
    return [...this.nodes.entries()].sort(([a], [b]) => byCodeUnits(a, b));
  }
}

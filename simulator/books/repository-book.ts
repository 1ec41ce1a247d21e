import { createHash } from "node:crypto";
import type { z } from "zod";
import { LomiError } from "../../protocol/errors.js";
import { GIT_COMMITS_MAX, type repositorySeed } from "../../protocol/tools/git.js";

interface Repository {
  projectId: string;
  branch: string;
  staged: string[];
  commits: Array<{ commitId: string; message: string; paths: string[] }>;
}

/** One Git repository per project: staged paths and commits; a project no seed names has a clean one. */
export class RepositoryBook {
  private readonly repositories = new Map<string, Repository>();

  constructor(seeds: ReadonlyArray<z.output<typeof repositorySeed>>) {
    for (const s of seeds) this.repositories.set(s.projectId, { projectId: s.projectId, branch: s.branch, staged: [...s.staged], commits: [] });
  }

  repository(projectId: string): Repository {
    let repo = this.repositories.get(projectId);
    if (!repo) {
      repo = { projectId, branch: "main", staged: [], commits: [] };
      this.repositories.set(projectId, repo);
    }
    return repo;
  }

  view(projectId: string) {
    const repo = this.repository(projectId);
    return {
      projectId,
      branch: repo.branch,
      head: repo.commits.at(-1)?.commitId ?? null,
      staged: [...repo.staged],
      commits: repo.commits
        .slice(-GIT_COMMITS_MAX)
        .reverse()
        .map((c) => ({ ...c, paths: [...c.paths] })),
    };
  }

  requireStaged(projectId: string): void {
    if (this.repository(projectId).staged.length === 0) {
      throw new LomiError("NOTHING_TO_COMMIT", `Nothing is staged in the repository of project ${projectId}; there is nothing to commit.`, {
        field: "projectId",
      });
    }
  }

  /** Commits what is staged. The ID hashes parent, message and paths, as Git's does, so a seed replays it. */
  commit(projectId: string, message: string) {
    const repo = this.repository(projectId);
    const parent = repo.commits.at(-1)?.commitId ?? "";
    const paths = [...repo.staged];
    const commitId = createHash("sha1")
      .update(`${parent}\n${message}\n${paths.join("\n")}`)
      .digest("hex");
    repo.commits.push({ commitId, message, paths });
    repo.staged = [];
    return { projectId, branch: repo.branch, commitId, paths };
  }
}

Feature: Directories
  Directory operations are decided on what the agent listed: the parent's directoryRevision for a
  create, the directory's entryRevision and the new parent's directoryRevision for a rename, the
  directory's own directoryRevision for a delete. These are not the layout counter.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @REV-35 @REV-36 @OP-04
  Scenario: A directory is created under the parent revision the agent listed, the layout counter untouched
    When the agent lists the directory "src" in workspace "ws-alpha"
    And the agent sends lomi_directory_create as "mkdir" with:
      """
      { "workspaceId": "ws-alpha", "path": "src/components", "expectedParentRevision": "{{directory:src}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mkdir-components" }
      """
    Then the reply is ok
    And operation "mkdir" reads succeeded with effectState complete
    And Lomi saw 1 "directory.created" effect
    And Lomi holds the directory "src/components" in project "proj-app"
    And Lomi's domainRevision of workspace "ws-alpha" is "7"

  @REV-35
  Scenario: A create decided on a stale parent revision is refused and nothing is created
    When the agent lists the directory "src" in workspace "ws-alpha"
    And another program writes "notes" to the file "src/notes.md" of project "proj-app"
    And the agent calls lomi_directory_create with:
      """
      { "workspaceId": "ws-alpha", "path": "src/components", "expectedParentRevision": "{{directory:src}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mkdir-stale" }
      """
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedParentRevision"
    And Lomi saw no dispatch at all
    And Lomi holds nothing at "src/components" in project "proj-app"

  @REV-36
  Scenario: A change deep inside a directory moves its revision: a delete decided before it is refused
    When the agent lists the directory "." in workspace "ws-alpha"
    And another program writes "export const two = 3;" to the file "src/lib/util.ts" of project "proj-app"
    And the agent calls lomi_directory_delete with:
      """
      { "workspaceId": "ws-alpha", "path": "src", "expectedDirectoryRevision": "{{directory:src}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "rm-src" }
      """
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedDirectoryRevision"
    And Lomi saw no dispatch at all
    And Lomi saw 0 "directory.deleted" effects
    And Lomi holds the file "src/lib/util.ts" of project "proj-app" with the text "export const two = 3;"

  @REV-36 @SCH-05
  Scenario: The domainRevision does not stand in for a directory revision
    When the agent calls lomi_directory_create with:
      """
      { "workspaceId": "ws-alpha", "path": "src/components", "expectedParentRevision": "{{revision:ws-alpha}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mkdir-layout" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "expectedParentRevision"
    And Lomi saw no dispatch at all

  @REV-35 @OP-04
  Scenario: A directory moves with everything in it under its entry revision and the new parent's revision
    When the agent lists the directory "src" in workspace "ws-alpha"
    And the agent sends lomi_directory_rename as "mv" with:
      """
      { "workspaceId": "ws-alpha", "path": "src/lib", "newPath": "src/shared",
        "expectedEntryRevision": "{{entry:src/lib}}", "expectedParentRevision": "{{directory:src}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mv-lib" }
      """
    Then the reply is ok
    And operation "mv" reads succeeded with effectState complete
    And Lomi saw 1 "directory.renamed" effect
    And Lomi holds nothing at "src/lib" in project "proj-app"
    And Lomi holds the file "src/shared/util.ts" of project "proj-app" with the bytes "65 78 70 6f 72 74 20 63 6f 6e 73 74 20 74 77 6f 20 3d 20 32 3b 0a"

  @REV-35
  Scenario: A rename decided on a stale entry revision is refused and nothing moves
    When the agent lists the directory "src" in workspace "ws-alpha"
    And another program writes "export const three = 3;" to the file "src/lib/three.ts" of project "proj-app"
    And the agent calls lomi_directory_rename with:
      """
      { "workspaceId": "ws-alpha", "path": "src/lib", "newPath": "src/shared",
        "expectedEntryRevision": "{{entry:src/lib}}", "expectedParentRevision": "{{directory:src}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mv-stale-entry" }
      """
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedEntryRevision"
    And Lomi saw no dispatch at all
    And Lomi holds the directory "src/lib" in project "proj-app"
    And Lomi holds nothing at "src/shared" in project "proj-app"

  @REV-35
  Scenario: A rename whose destination parent changed is refused, though the directory itself did not
    When the agent lists the directory "." in workspace "ws-alpha"
    And the agent lists the directory "src" in workspace "ws-alpha"
    And another program writes "# Notes" to the file "NOTES.md" of project "proj-app"
    And the agent calls lomi_directory_rename with:
      """
      { "workspaceId": "ws-alpha", "path": "src/lib", "newPath": "lib",
        "expectedEntryRevision": "{{entry:src/lib}}", "expectedParentRevision": "{{directory:.}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mv-stale-parent" }
      """
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedParentRevision"
    And Lomi saw no dispatch at all
    And Lomi holds the directory "src/lib" in project "proj-app"

  @REV-35 @OP-04
  Scenario: A directory and everything in it is deleted under its directory revision
    When the agent lists the directory "." in workspace "ws-alpha"
    And the agent sends lomi_directory_delete as "rm" with:
      """
      { "workspaceId": "ws-alpha", "path": "tmp", "expectedDirectoryRevision": "{{directory:tmp}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "rm-tmp" }
      """
    Then the reply is ok
    And operation "rm" reads succeeded with effectState complete
    And Lomi saw 1 "directory.deleted" effect
    And Lomi holds nothing at "tmp/cache/blob.bin" in project "proj-app"
    And Lomi holds nothing at "tmp" in project "proj-app"

  @SCH-30
  Scenario: A listing or a rename that leaves the project is refused
    When the agent calls lomi_directory_list with:
      """
      { "workspaceId": "ws-alpha", "path": ".." }
      """
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "path"
    When the agent lists the directory "." in workspace "ws-alpha"
    And the agent calls lomi_directory_rename with:
      """
      { "workspaceId": "ws-alpha", "path": "build", "newPath": "../build",
        "expectedEntryRevision": "{{entry:build}}", "expectedParentRevision": "{{directory:.}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mv-out" }
      """
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "newPath"
    And Lomi saw no dispatch at all

  @SCH-32
  Scenario: Creating a directory that exists is refused
    When the agent lists the directory "." in workspace "ws-alpha"
    And the agent calls lomi_directory_create with:
      """
      { "workspaceId": "ws-alpha", "path": "build", "expectedParentRevision": "{{directory:.}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "mkdir-build" }
      """
    Then the reply is the error ALREADY_EXISTS
    And the error names the field "path"
    And Lomi saw no dispatch at all

  @SCH-32
  Scenario: The project root cannot be deleted, nor a directory holding a read-only file
    Given the file "tmp/cache/blob.bin" of project "proj-app" cannot be written
    When the agent lists the directory "." in workspace "ws-alpha"
    And the agent calls lomi_directory_delete with:
      """
      { "workspaceId": "ws-alpha", "path": ".", "expectedDirectoryRevision": "{{directory:.}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "rm-root" }
      """
    Then the reply is the error PERMISSION_DENIED
    When the agent calls lomi_directory_delete with:
      """
      { "workspaceId": "ws-alpha", "path": "tmp", "expectedDirectoryRevision": "{{directory:tmp}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "rm-tmp-locked" }
      """
    Then the reply is the error PERMISSION_DENIED
    And Lomi saw no dispatch at all
    And Lomi holds the directory "tmp" in project "proj-app"

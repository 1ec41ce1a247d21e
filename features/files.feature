Feature: Files on disk
  lomi_file_read gives a file's exact bytes and its diskRevision, the SHA-256 of those bytes;
  lomi_file_write is decided on that revision. Line endings and encodings are bytes like any
  other: nothing converts them on the way in or out.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @ENV-04
  Scenario: tools/list publishes the file, directory, editor and close tools with strict schemas
    Then every tool in tools/list has an input schema that rejects unknown fields and an output schema
    And tools/list includes "lomi_file_read, lomi_file_write, lomi_directory_list, lomi_directory_create, lomi_directory_rename, lomi_directory_delete, lomi_editor_documents, lomi_editor_apply, lomi_workspace_close"

  @REV-30
  Scenario: A file with CRLF line endings reads as its exact bytes, their SHA-256 its diskRevision
    When the agent reads the file "scripts/test.cmd" in workspace "ws-alpha"
    Then the reply is ok
    And the file read shows the bytes "40 65 63 68 6f 20 6f 66 66 0d 0a 6e 70 6d 20 74 65 73 74 0d 0a"
    And the file read shows line endings crlf
    And the file read's diskRevision is the SHA-256 of those bytes
    And the file read's text view is the UTF-8 reading of those bytes

  @REV-30
  Scenario: A Latin-1 file reads as its exact bytes, with no text view
    When the agent reads the file "docs/legacy-latin1.txt" in workspace "ws-alpha"
    Then the file read shows the bytes "43 61 66 e9 20 63 72 e8 6d 65 0d 0a"
    And the file read's diskRevision is the SHA-256 of those bytes
    And the file read has no text view

  @REV-32 @OP-04
  Scenario: CRLF bytes survive a round trip byte for byte
    When the agent reads the file "scripts/test.cmd" in workspace "ws-alpha"
    And the agent writes back the bytes it read from "scripts/test.cmd" in workspace "ws-alpha" as "save"
    Then the reply is ok
    And operation "save" reads succeeded with effectState complete
    And operation "save" reports the diskRevision the agent read from "scripts/test.cmd"
    And Lomi saw 1 "file.written" effect
    And Lomi holds the file "scripts/test.cmd" of project "proj-app" with the bytes "40 65 63 68 6f 20 6f 66 66 0d 0a 6e 70 6d 20 74 65 73 74 0d 0a"

  @REV-32
  Scenario: New Latin-1 bytes with CRLF are written exactly as sent and read back the same
    When the agent reads the file "docs/legacy-latin1.txt" in workspace "ws-alpha"
    And the agent writes the bytes "c0 20 62 69 65 6e 74 f4 74 0d 0a" to "docs/legacy-latin1.txt" in workspace "ws-alpha" as "latin1"
    Then operation "latin1" reads succeeded with effectState complete
    And Lomi holds the file "docs/legacy-latin1.txt" of project "proj-app" with the bytes "c0 20 62 69 65 6e 74 f4 74 0d 0a"
    When the agent reads the file "docs/legacy-latin1.txt" in workspace "ws-alpha"
    Then the file read shows the bytes "c0 20 62 69 65 6e 74 f4 74 0d 0a"
    And the file read's diskRevision is the SHA-256 of those bytes
    And the file read has no text view
    And operation "latin1" reports the diskRevision the agent read from "docs/legacy-latin1.txt"

  @REV-31
  Scenario: A write decided on a stale diskRevision is refused and nothing is written
    When the agent reads the file "src/app.ts" in workspace "ws-alpha"
    And another program writes "changed elsewhere" to the file "src/app.ts" of project "proj-app"
    And the agent writes the text "overwritten" to "src/app.ts" in workspace "ws-alpha" as "stale"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedDiskRevision"
    And Lomi saw no dispatch at all
    And Lomi saw 0 "file.written" effects
    And Lomi holds the file "src/app.ts" of project "proj-app" with the text "changed elsewhere"
    When the agent reads the file "src/app.ts" in workspace "ws-alpha"
    And the agent writes the text "overwritten" to "src/app.ts" in workspace "ws-alpha" as "fresh"
    Then operation "fresh" reads succeeded with effectState complete
    And Lomi holds the file "src/app.ts" of project "proj-app" with the text "overwritten"

  @REV-31 @OP-02
  Scenario: A write that goes stale while it waits in the queue fails at dispatch with nothing written
    Given the next dispatch of lomi_file_write is held
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent writes the text "# First" to "README.md" in workspace "ws-alpha" as "first"
    And the agent writes the text "# Second" to "README.md" in workspace "ws-alpha" as "second"
    Then the reply shows state queued
    When Lomi completes the held dispatch of "first"
    Then operation "first" reads succeeded with effectState complete
    And operation "second" reads failed with effectState none
    And operation "second" carries the error REVISION_CONFLICT
    And Lomi saw 1 "file.written" effect
    And Lomi holds the file "README.md" of project "proj-app" with the text "# First"

  @REV-31 @SCH-32
  Scenario: A null expectedDiskRevision creates a new file, and is refused where a file exists
    When the agent sends lomi_file_write as "create" with:
      """
      { "workspaceId": "ws-alpha", "path": "src/new.ts", "expectedDiskRevision": null,
        "content": { "text": "export {};\r\n" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "create-new" }
      """
    Then the reply is ok
    And operation "create" reads succeeded with effectState complete
    And Lomi holds the file "src/new.ts" of project "proj-app" with the bytes "65 78 70 6f 72 74 20 7b 7d 3b 0d 0a"
    When the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "src/app.ts", "expectedDiskRevision": null,
        "content": { "text": "clobbered" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "clobber" }
      """
    Then the reply is the error ALREADY_EXISTS
    And the error names the field "expectedDiskRevision"
    And Lomi saw 1 "file.written" effect

  @IDEM-01 @REV-31
  Scenario: A write retried after a lost reply, its diskRevision now stale, returns the prior operation and writes once
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent writes the text "# Once" to "README.md" in workspace "ws-alpha" as "once"
    And operation "once" reads succeeded
    And the reply to "once" is lost
    And the agent retries "once"
    Then the reply is ok
    And the reply names the operation Lomi dispatched for "once"
    And Lomi saw 1 dispatch of "once"
    And Lomi saw 1 "file.written" effect

  @CANCEL-30
  Scenario: Cancelling a completed write answers already_settled and the bytes stay written
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent writes the text "# Kept" to "README.md" in workspace "ws-alpha" as "kept"
    And operation "kept" reads succeeded
    And the agent cancels "kept"
    Then the cancel outcome is already_settled
    And operation "kept" reads succeeded with effectState complete
    And Lomi holds the file "README.md" of project "proj-app" with the text "# Kept"

  @SCH-31
  Scenario: Content with both text and base64 is not one variant of the union
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "README.md", "expectedDiskRevision": "{{disk:README.md}}",
        "content": { "text": "# Both", "base64": "IyBCb3Ro" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "both" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "content"
    And Lomi saw no dispatch at all
    And Lomi still holds the bytes the agent read from "README.md" in project "proj-app"

  @SCH-31
  Scenario: Content with neither variant, or base64 that is not base64, is refused
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "README.md", "expectedDiskRevision": "{{disk:README.md}}",
        "content": {}, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "neither" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "content"
    When the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "README.md", "expectedDiskRevision": "{{disk:README.md}}",
        "content": { "base64": "not base64!" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "bad-base64" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "content.base64"
    And Lomi saw no dispatch at all

  @SCH-30
  Scenario: A path that escapes the project is refused for a read and for a write
    When the agent calls lomi_file_read with:
      """
      { "workspaceId": "ws-alpha", "path": "src/../../secrets.txt" }
      """
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "path"
    When the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "/etc/hosts", "expectedDiskRevision": null,
        "content": { "text": "127.0.0.1 lomi" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "escape" }
      """
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "path"
    And Lomi saw no dispatch at all

  @SCH-32
  Scenario: A read-only file is refused natively and nothing is written
    Given the file "README.md" of project "proj-app" cannot be written
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent writes the text "# Nope" to "README.md" in workspace "ws-alpha" as "denied"
    Then the reply is the error PERMISSION_DENIED
    And Lomi saw no dispatch at all
    And Lomi still holds the bytes the agent read from "README.md" in project "proj-app"

  @SCH-33
  Scenario: lomi_file_read takes no retry epoch
    When the agent calls lomi_file_read with:
      """
      { "workspaceId": "ws-alpha", "path": "README.md", "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"

  @SCH-05 @REV-36
  Scenario: The decimal layout counter is not a disk revision
    When the agent calls lomi_file_write with:
      """
      { "workspaceId": "ws-alpha", "path": "README.md", "expectedDiskRevision": "{{revision:ws-alpha}}",
        "content": { "text": "# Layout" }, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "layout" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "expectedDiskRevision"
    And Lomi saw no dispatch at all

  @SCH-03
  Scenario: With several projects a file read names its project
    Given the agent is connected to workspace "ws-beta"
    When the agent calls lomi_file_read with:
      """
      { "workspaceId": "ws-beta", "path": "README.md" }
      """
    Then the reply is the error PROJECT_REQUIRED
    And the error names the field "projectId"
    When the agent calls lomi_file_read with:
      """
      { "workspaceId": "ws-beta", "projectId": "proj-web", "path": "README.md" }
      """
    Then the reply is ok
    And the file read shows the bytes "23 20 57 65 62 0a"

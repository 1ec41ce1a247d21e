Feature: The shared editor
  Documents the user opened in Lomi's editor are listed with a documentId and a bufferRevision;
  lomi_editor_apply edits the exact document at the revision it was decided on. The buffer is
  not the disk: an edit makes the document dirty and writes no byte.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @REV-34 @OP-04
  Scenario: An edit changes the buffer and its revision, not the disk
    When the agent lists the editor documents of workspace "ws-alpha"
    Then the listing shows "src/app.ts" as clean at buffer revision "1"
    When the agent reads the file "src/app.ts" in workspace "ws-alpha"
    And the agent inserts "/* agent */ " at offset 0 of the document "src/app.ts" in workspace "ws-alpha" as "edit"
    Then the reply is ok
    And operation "edit" reads succeeded with effectState complete
    And Lomi saw 1 "editor.edited" effect
    And the editor buffer of "src/app.ts" in project "proj-app" contains "/* agent */ export const greeting"
    And the document "src/app.ts" of project "proj-app" is dirty in Lomi
    And Lomi saw 0 "file.written" effects
    And Lomi still holds the bytes the agent read from "src/app.ts" in project "proj-app"
    When the agent lists the editor documents of workspace "ws-alpha"
    Then the listing shows "src/app.ts" as dirty at buffer revision "2"
    # A read of the dirty document's file is judged against the disk as Lomi holds it, not the buffer
    When the agent reads the file "src/app.ts" in workspace "ws-alpha"
    Then Lomi still holds the bytes the agent read from "src/app.ts" in project "proj-app"

  @REV-33
  Scenario: An edit decided on a stale bufferRevision is refused and the user's typing is kept
    When the agent lists the editor documents of workspace "ws-alpha"
    And the user types " // typed by the user" at the end of "src/app.ts" of project "proj-app" in the editor
    And the agent inserts "/* agent */ " at offset 0 of the document "src/app.ts" in workspace "ws-alpha" as "stale"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedBufferRevision"
    And Lomi saw no dispatch at all
    And the editor buffer of "src/app.ts" in project "proj-app" contains "// typed by the user"
    And the editor buffer of "src/app.ts" in project "proj-app" does not contain "/* agent */"
    When the agent lists the editor documents of workspace "ws-alpha"
    Then the listing shows "src/app.ts" as dirty at buffer revision "2"
    When the agent inserts "/* agent */ " at offset 0 of the document "src/app.ts" in workspace "ws-alpha" as "fresh"
    Then operation "fresh" reads succeeded with effectState complete
    And the editor buffer of "src/app.ts" in project "proj-app" contains "/* agent */ export const greeting"
    And the editor buffer of "src/app.ts" in project "proj-app" contains "// typed by the user"

  @REV-34
  Scenario: A clean document follows the disk, and its bufferRevision moves with it
    When another program writes "export const greeting = 1;" to the file "src/app.ts" of project "proj-app"
    And the agent lists the editor documents of workspace "ws-alpha"
    Then the listing shows "src/app.ts" as clean at buffer revision "2"
    And the editor buffer of "src/app.ts" in project "proj-app" contains "greeting = 1;"

  @SCH-32
  Scenario: An edit outside the buffer is out of range and nothing is dispatched
    When the agent lists the editor documents of workspace "ws-alpha"
    And the agent calls lomi_editor_apply with:
      """
      { "workspaceId": "ws-alpha", "documentId": "{{document:src/app.ts}}", "expectedBufferRevision": "{{buffer:src/app.ts}}",
        "edits": [{ "start": 0, "end": 9999, "text": "" }], "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "too-far" }
      """
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "edits.0"
    And Lomi saw no dispatch at all

  @SCH-32
  Scenario: Overlapping edits are refused
    When the agent lists the editor documents of workspace "ws-alpha"
    And the agent calls lomi_editor_apply with:
      """
      { "workspaceId": "ws-alpha", "documentId": "{{document:src/app.ts}}", "expectedBufferRevision": "{{buffer:src/app.ts}}",
        "edits": [{ "start": 0, "end": 6, "text": "let" }, { "start": 3, "end": 8, "text": "x" }], "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "overlap" }
      """
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "edits.1"
    And Lomi saw no dispatch at all

  @SCH-32 @REV-32
  Scenario: A Latin-1 document refuses a character Latin-1 cannot hold
    When the agent lists the editor documents of workspace "ws-alpha"
    And the agent calls lomi_editor_apply with:
      """
      { "workspaceId": "ws-alpha", "documentId": "{{document:docs/legacy-latin1.txt}}", "expectedBufferRevision": "{{buffer:docs/legacy-latin1.txt}}",
        "edits": [{ "start": 0, "end": 0, "text": "€ " }], "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "euro" }
      """
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "edits.0.text"
    And Lomi saw no dispatch at all

  @SCH-34
  Scenario: A path in place of the documentId is refused
    When the agent lists the editor documents of workspace "ws-alpha"
    And the agent calls lomi_editor_apply with:
      """
      { "workspaceId": "ws-alpha", "documentId": "src/app.ts", "expectedBufferRevision": "{{buffer:src/app.ts}}",
        "edits": [{ "start": 0, "end": 0, "text": "x" }], "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "by-path" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "documentId"
    When the agent calls lomi_editor_apply with:
      """
      { "workspaceId": "ws-alpha", "documentId": "app.ts", "expectedBufferRevision": "{{buffer:src/app.ts}}",
        "edits": [{ "start": 0, "end": 0, "text": "x" }], "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "by-name" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "documentId"
    And Lomi saw no dispatch at all

  @SCH-33
  Scenario: lomi_editor_documents takes no request key
    When the agent calls lomi_editor_documents with:
      """
      { "workspaceId": "ws-alpha", "requestKey": "docs-1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"

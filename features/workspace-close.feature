Feature: Closing a workspace
  lomi_workspace_close asks the user first when editor documents are dirty: the operation waits in
  awaiting_user for the native decision shown in Lomi. On approval Lomi saves the dirty files one by
  one and closes the workspace; a save that fails midway leaves it open with partial effects; a
  denial saves nothing. Cancel never undoes a save that happened.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @OP-31
  Scenario: A workspace with no dirty documents closes without asking
    When the agent closes workspace "ws-alpha" as "close"
    Then the reply is ok
    And operation "close" reads succeeded with effectState complete
    And Lomi shows the user no decision
    And Lomi saw 0 "file.saved" effects
    And Lomi saw 1 "workspace.closed" effect
    And workspace "ws-alpha" is closed in Lomi

  @OP-30 @OP-31 @OP-02
  Scenario: Dirty documents make the close wait for the user; approved, they are saved one by one and the workspace closes
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    And the user types "More." at the end of "README.md" of project "proj-app" in the editor
    When the agent closes workspace "ws-alpha" as "close"
    Then the reply is ok
    # checks OP-30
    And the reply shows state awaiting_user
    And operation "close" reads awaiting_user with effectState none
    And the decision Lomi shows for "close" names the files "proj-app/src/app.ts, proj-app/README.md"
    And Lomi saw 0 "file.saved" effects
    And workspace "ws-alpha" is open in Lomi
    # checks OP-31
    When the user approves the decision for "close"
    Then operation "close" reads succeeded with effectState complete
    And Lomi saved "src/app.ts, README.md", one file after the other
    And Lomi saw 1 "workspace.closed" effect
    And workspace "ws-alpha" is closed in Lomi
    And operation "close" lists the saved files "src/app.ts, README.md" and the unsaved files ""
    And Lomi holds the file "src/app.ts" of project "proj-app" ending with the text " // one"
    And Lomi holds the file "README.md" of project "proj-app" ending with the text "More."
    # checks OP-02
    And the events of workspace "ws-alpha" show "close" reaching succeeded through "awaiting_user, running"

  @REV-32 @OP-31
  Scenario: The close guard saves a Latin-1 document in its own encoding, its CRLF kept
    Given the user types "!" at the end of "docs/legacy-latin1.txt" of project "proj-app" in the editor
    When the agent closes workspace "ws-alpha" as "close"
    And the user approves the decision for "close"
    Then operation "close" reads succeeded with effectState complete
    And Lomi holds the file "docs/legacy-latin1.txt" of project "proj-app" with the bytes "43 61 66 e9 20 63 72 e8 6d 65 0d 0a 21"

  @OP-32 @OP-04 @OP-03
  Scenario: A save that fails midway leaves the workspace open and the close failed with partial effects
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    And the user types "More." at the end of "README.md" of project "proj-app" in the editor
    And the file "README.md" of project "proj-app" cannot be written
    When the agent closes workspace "ws-alpha" as "close"
    And the user approves the decision for "close"
    # checks OP-04
    Then operation "close" reads failed with effectState partial
    # checks OP-03
    And the read was not an MCP error
    # checks OP-32
    And operation "close" carries the error PERMISSION_DENIED
    And operation "close" lists the saved files "src/app.ts" and the unsaved files "README.md"
    And Lomi saved "src/app.ts", one file after the other
    And Lomi saw 0 "workspace.closed" effects
    And workspace "ws-alpha" is open in Lomi
    And the document "src/app.ts" of project "proj-app" is clean in Lomi
    And the document "README.md" of project "proj-app" is dirty in Lomi
    # checks OP-32
    And the events of workspace "ws-alpha" show "close" reaching failed through "awaiting_user, running"

  @OP-32 @OP-04
  Scenario: When the first save fails nothing was saved: failed with effectState none
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    And the user types "More." at the end of "README.md" of project "proj-app" in the editor
    And the file "src/app.ts" of project "proj-app" cannot be written
    When the agent closes workspace "ws-alpha" as "close"
    And the user approves the decision for "close"
    Then operation "close" reads failed with effectState none
    And operation "close" carries the error PERMISSION_DENIED
    And operation "close" lists the saved files "" and the unsaved files "src/app.ts, README.md"
    And Lomi saw 0 "file.saved" effects
    And workspace "ws-alpha" is open in Lomi

  @OP-41
  Scenario: The user denies: the close fails with USER_DENIED, nothing saved, the workspace open
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    When the agent closes workspace "ws-alpha" as "close"
    And the user denies the decision for "close"
    Then operation "close" reads failed with effectState none
    And operation "close" carries the error USER_DENIED
    And Lomi shows the user no decision
    And Lomi saw 0 "file.saved" effects
    And workspace "ws-alpha" is open in Lomi
    And the document "src/app.ts" of project "proj-app" is dirty in Lomi

  @CANCEL-42
  Scenario: Cancelling a close that waits for the user withdraws the question with nothing saved
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    When the agent closes workspace "ws-alpha" as "close"
    And the agent cancels "close"
    Then the cancel outcome is cancelled or cancelling
    And operation "close" reads cancelled with effectState none
    And Lomi shows the user no decision
    And Lomi saw 0 "file.saved" effects
    And workspace "ws-alpha" is open in Lomi
    And the document "src/app.ts" of project "proj-app" is dirty in Lomi

  @CANCEL-30 @OP-32
  Scenario: Cancel cannot undo the saves of a close that failed midway
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    And the user types "More." at the end of "README.md" of project "proj-app" in the editor
    And the file "README.md" of project "proj-app" cannot be written
    When the agent closes workspace "ws-alpha" as "close"
    And the user approves the decision for "close"
    And operation "close" reads failed
    And the agent cancels "close"
    Then the cancel outcome is already_settled
    And operation "close" reads failed with effectState partial
    And Lomi saw 1 "file.saved" effect
    And Lomi holds the file "src/app.ts" of project "proj-app" ending with the text " // one"

  @CANCEL-30
  Scenario: Cancel after a close completed leaves it succeeded and the files saved
    Given the user types " // one" at the end of "src/app.ts" of project "proj-app" in the editor
    When the agent closes workspace "ws-alpha" as "close"
    And the user approves the decision for "close"
    And operation "close" reads succeeded
    And the agent cancels "close"
    Then the cancel outcome is already_settled
    And operation "close" reads succeeded with effectState complete
    And Lomi holds the file "src/app.ts" of project "proj-app" ending with the text " // one"

  @SCH-32
  Scenario: A closed workspace takes no more operations, and nothing is dispatched
    When the agent closes workspace "ws-alpha" as "close"
    And operation "close" reads succeeded
    And the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent writes the text "# Late" to "README.md" in workspace "ws-alpha" as "late"
    Then the reply is the error NOT_FOUND
    And the error names the field "workspaceId"
    And Lomi saw 0 dispatches of "late"
    When the agent closes workspace "ws-alpha" as "again"
    Then the reply is the error NOT_FOUND
    And Lomi saw 0 dispatches of "again"

  @SCH-01
  Scenario: An unknown field on the close is rejected by name and nothing is dispatched
    When the agent calls lomi_workspace_close with:
      """
      { "workspaceId": "ws-alpha", "discardUnsaved": true, "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "close-force" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "discardUnsaved"
    And Lomi saw no dispatch at all

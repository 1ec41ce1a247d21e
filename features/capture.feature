Feature: Panel captures
  A capture is a standard MCP image block holding a PNG of what the panel shows now, with the
  panel, its kind, its runtime generation and the image's size in the envelope's data. (Every
  image block of every reply in the suite is also checked: image/png, and it decodes.)

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @ENV-10 @ENV-11
  Scenario: A browser capture is a PNG of the page, with what it shows
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent captures the panel of "docs"
    Then the reply is ok
    And the capture shows the browser panel of "docs" at its current runtime

  @ENV-10 @ENV-11
  Scenario: A terminal capture shows its text grid, and the output of a command once it ran
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent captures the panel of "term"
    Then the capture shows the terminal panel of "term" at its current runtime
    When the agent runs "npm test" in the terminal of "term" as "tests"
    And the clock advances by 3 seconds
    And operation "tests" reads succeeded
    And the agent captures the panel of "term"
    Then the capture differs from the one before

  @ENV-11
  Scenario: A capture follows the page: after a navigation it shows the new document
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent captures the panel of "docs"
    And the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    And operation "guide" reads succeeded
    And the agent captures the panel of "docs"
    Then the capture shows the browser panel of "docs" at its current runtime
    And the capture differs from the one before

  @ENV-11
  Scenario: A panel that did not change captures the same
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent captures the panel of "docs"
    And the agent captures the panel of "docs"
    Then the capture is the same as the one before

  @ENV-11 @REV-20
  Scenario: A capture after a runtime restart names the new runtime
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the runtime of the browser of "docs" restarts
    And the agent captures the panel of "docs"
    Then the capture shows the browser panel of "docs" at its current runtime

  @AUTH-10
  Scenario: A capture by a panel's title rather than its panelId is refused
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    And operation "docs" reads succeeded
    When the agent calls lomi_capture with:
      """
      { "workspaceId": "ws-alpha", "panelId": "Docs" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "panelId"

  @SCH-02
  Scenario: A capture is an observation and takes no retry fields
    When the agent calls lomi_capture with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"

  @AUTH-11
  Scenario: A panel is captured only through its own workspace, approved for the pairing
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When agent "other" calls lomi_workspace_list
    Then the reply is the error PAIRING_REQUIRED
    When the user approves the pending session of agent "other" for workspace "ws-beta" only
    And agent "other" captures the panel of "docs"
    Then the reply is the error WORKSPACE_NOT_APPROVED
    When agent "other" captures the panel of "docs" through workspace "ws-beta"
    Then the reply is the error NOT_FOUND
    And the error names the field "panelId"

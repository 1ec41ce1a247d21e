Feature: Revisions and runtime identities
  Layout mutations name the domainRevision they were decided on; runtime identities name the
  exact runtime. Stale ones are refused with nothing done.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @REV-01
  Scenario: A stale expectedRevision is refused and nothing is done
    When the user changes the layout of workspace "ws-alpha"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "stale"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedRevision"
    And Lomi saw no dispatch at all
    And the workspace "ws-alpha" has 0 terminal panels

  @REV-01
  Scenario: A fresh panel list gives the revision that works
    When the user changes the layout of workspace "ws-alpha"
    And the agent refreshes the panels of workspace "ws-alpha"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "fresh"
    Then the reply is ok
    And operation "fresh" reads succeeded with effectState complete

  @REV-01
  Scenario: Each layout change moves the decimal domainRevision on
    When the agent creates a terminal "One" in workspace "ws-alpha" as "one"
    And operation "one" reads succeeded
    And the agent creates a terminal "Two" in workspace "ws-alpha" as "two" with expectedRevision set to "7"
    Then the reply is the error REVISION_CONFLICT
    When the agent creates a terminal "Two" in workspace "ws-alpha" as "two-fresh" with expectedRevision set to "8"
    Then the reply is ok

  @REV-01 @OP-02
  Scenario: A layout change while an operation waits in the queue fails it at dispatch, with nothing done
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    And Lomi completes the held dispatch of "first"
    Then operation "second" reads failed with effectState none
    And operation "second" carries the error REVISION_CONFLICT
    And the workspace "ws-alpha" has 1 terminal panel

  @REV-02
  Scenario: After a runtime restart the old terminalSessionId is stale while the panel lives on
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the runtime of the terminal of "term" restarts
    And the agent runs "npm test" in the terminal of "term" as "tests"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "terminalSessionId"
    And Lomi saw 0 dispatches of "tests"
    And the workspace "ws-alpha" has 1 terminal panel

  @REV-02
  Scenario: A command running when its runtime restarts fails with a stale runtime
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent runs "npm test" in the terminal of "term" as "tests"
    And the runtime of the terminal of "term" restarts
    Then operation "tests" reads failed with effectState partial
    And operation "tests" carries the error STALE_RUNTIME

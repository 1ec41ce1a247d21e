Feature: Retry after a lost reply
  A client that lost a reply resends the entire original request. The same identity and
  arguments return the prior operation; Lomi sees one dispatch and one effect.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @IDEM-01 @IDEM-05
  Scenario: The same request after a lost MCP reply returns the same operation
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the reply to "first" is lost
    And the agent retries "first"
    Then the reply is ok
    And the reply names the operation Lomi dispatched for "first"
    And Lomi saw 1 dispatch of "first"
    And Lomi saw 1 "terminal.created" effect
    And the workspace "ws-alpha" has 1 terminal panel

  @IDEM-01
  Scenario: A retry is marked as the prior operation and dispatches nothing more
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    Then the reply admits a new operation
    When the agent retries "first"
    Then the reply returns the prior operation "first"
    When the agent retries "first"
    Then the reply returns the prior operation "first"
    And Lomi saw 1 dispatch of "first"
    And Lomi recorded no replay

  @IDEM-01 @OP-01
  Scenario: Lomi's reply to the broker is lost; the effect happened and the retry finds it
    Given the next dispatch of lomi_terminal_create loses its reply
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    Then the reply is ok
    When the agent retries "first"
    Then the reply returns the prior operation "first"
    And operation "first" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "first"
    And Lomi saw 1 "terminal.created" effect

  @IDEM-01
  Scenario: A retry while the first attempt is still running returns it, still running
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first"
    Then the reply returns the prior operation "first"
    And the reply shows state running
    And Lomi saw 1 dispatch of "first"

  @IDEM-01 @REV-01
  Scenario: A retry carrying the now-stale revision still returns the prior operation
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And operation "first" reads succeeded
    And the agent retries "first"
    Then the reply returns the prior operation "first"
    And Lomi saw 1 dispatch of "first"

  @IDEM-05
  Scenario: A lost reply is recovered by looking the operation up by its key
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the reply to "first" is lost
    And the agent looks up "first" by its retry identity
    Then the reply is ok
    And the reply names the operation Lomi dispatched for "first"
    And the reply's operation reads succeeded with effectState complete

  @IDEM-05
  Scenario: An operation is read by its operationId
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent reads operation "first"
    Then the reply names operation "first"

  @IDEM-05
  Scenario: A key that names no operation is not found
    When the agent calls lomi_operation_lookup with:
      """
      { "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "never-sent", "tool": "lomi_terminal_create" }
      """
    Then the reply is the error NOT_FOUND

  @IDEM-07
  Scenario: Two identical requests at the same moment make one operation
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first" twice at once
    Then both replies to "first" name the same operation
    And Lomi saw 1 dispatch of "first"
    And the workspace "ws-alpha" has 1 terminal panel

  @IDEM-06 @SCH-03
  Scenario: With two approved projects, key lookup needs the anchor projectId
    Given the agent is connected to workspace "ws-beta"
    When the agent sends lomi_terminal_create as "api" with:
      """
      { "workspaceId": "ws-beta", "projectId": "proj-api", "cwdRelative": "", "title": "API",
        "expectedRevision": "{{revision:ws-beta}}", "retryEpoch": "{{epoch:ws-beta}}", "requestKey": "create-api" }
      """
    Then the reply is ok
    When the agent calls lomi_operation_lookup with:
      """
      { "retryEpoch": "{{epoch:ws-beta}}", "requestKey": "create-api", "tool": "lomi_terminal_create" }
      """
    Then the reply is the error PROJECT_REQUIRED
    When the agent looks up "api" by its retry identity with projectId "proj-api"
    Then the reply names operation "api"
    When the agent looks up "api" by its retry identity with projectId "proj-web"
    Then the reply is the error NOT_FOUND

  @SCH-03
  Scenario: With two approved projects, an operation without projectId is refused before any dispatch
    Given the agent is connected to workspace "ws-beta"
    When the agent creates a terminal "API" in workspace "ws-beta" as "api"
    Then the reply is the error PROJECT_REQUIRED
    And Lomi saw no dispatch at all

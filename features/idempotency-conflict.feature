Feature: Idempotency conflicts
  Changed arguments under the same retry identity answer IDEMPOTENCY_CONFLICT and leave the
  original operation untouched. The identity binds pairing, epoch, project, tool and request key.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @IDEM-02 @IDEM-03
  Scenario: A changed title under the same key is a conflict
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first" with title changed to "Other"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And operation "first" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "first"
    And the workspace "ws-alpha" has 1 terminal panel

  @IDEM-02 @IDEM-03
  Scenario: A changed expectedRevision under the same key is a conflict
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first" with expectedRevision changed to "8"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And Lomi saw 1 dispatch of "first"

  @IDEM-02 @IDEM-03
  Scenario: A changed working directory under the same key is a conflict
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first" with cwdRelative changed to "src"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And Lomi saw 1 dispatch of "first"

  @IDEM-02 @IDEM-03
  Scenario: A changed target generation under the same key is a conflict
    Given the agent creates a terminal "One" in workspace "ws-alpha" as "term-one"
    And the agent refreshes the panels of workspace "ws-alpha"
    And the agent creates a terminal "Two" in workspace "ws-alpha" as "term-two"
    When the agent runs "npm test" in the terminal of "term-one" as "tests"
    And the agent retries "tests" with terminalSessionId changed to the terminal session of "term-two"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And Lomi saw 1 dispatch of "tests"

  @IDEM-02
  Scenario: A conflict on a held operation leaves it running and then lets it finish
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first" with title changed to "Other"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And operation "first" reads running
    When Lomi completes the held dispatch of "first"
    Then operation "first" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "first"

  @IDEM-02
  Scenario: The conflict names the operation that holds the key
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent retries "first" with title changed to "Other"
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And the error carries the operationId of "first"

  @IDEM-04
  Scenario: The same request key under another tool is another identity
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent runs "npm test" in the terminal of "term" as "tests" reusing the request key of "term"
    Then the reply admits a new operation
    And Lomi saw 1 dispatch of "term"
    And Lomi saw 1 dispatch of "tests"

  @IDEM-04 @EPOCH-02
  Scenario: The same request key under a fresh retry epoch is another identity
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent refreshes the panels of workspace "ws-alpha"
    And the agent connects to workspace "ws-alpha"
    And the agent retries "first" under a fresh retry epoch
    Then the reply is the error REVISION_CONFLICT
    And Lomi saw 1 dispatch of "first"

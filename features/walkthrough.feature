Feature: Make and monitor a mutation
  The source's own walk-through: list the workspaces, connect, create a terminal with a fresh
  domainRevision and the connection's retry epoch, then read the operation until it settles.

  @OP-05
  Scenario: The terminal walk-through of the source works verbatim
    Given the agent is paired
    When the agent calls lomi_workspace_list
    Then the reply is ok
    When the agent connects to workspace "ws-alpha"
    Then the reply is ok
    When the agent sends lomi_terminal_create as "tests" with:
      """
      {
        "workspaceId": "ws-alpha",
        "cwdRelative": "",
        "title": "Tests",
        "expectedRevision": "{{revision:ws-alpha}}",
        "retryEpoch": "{{epoch:ws-alpha}}",
        "requestKey": "create-test-terminal-1"
      }
      """
    Then the reply is ok
    And operation "tests" reads succeeded with effectState complete
    And operation "tests" carries a terminal session and a lease
    And Lomi saw 1 dispatch of "tests"
    And Lomi saw 1 "terminal.created" effect

  @OP-01
  Scenario: An operationId acknowledges admission, not completion
    Given the agent is connected to workspace "ws-alpha"
    And the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    Then the reply is ok
    And the reply shows state running
    And operation "held" reads running with effectState none
    And the workspace "ws-alpha" has 0 terminal panels
    When Lomi completes the held dispatch of "held"
    Then operation "held" reads succeeded with effectState complete
    And the workspace "ws-alpha" has 1 terminal panel

  @OP-03 @OP-04
  Scenario: A failed operation is a successful read with its failure in the receipt
    Given the agent is connected to workspace "ws-alpha"
    And the next dispatch of lomi_terminal_create fails
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "doomed"
    Then the reply is ok
    When the agent reads operation "doomed"
    # checks OP-03
    Then the read was not an MCP error
    # checks OP-04
    And operation "doomed" reads failed with effectState none
    # checks OP-03
    And operation "doomed" carries the error NATIVE_FAILURE
    # checks OP-04
    And the workspace "ws-alpha" has 0 terminal panels

  @OP-04
  Scenario: A command that exits non-zero failed with its effect complete
    Given the agent is connected to workspace "ws-alpha"
    And the agent creates a terminal "Build" in workspace "ws-alpha" as "term"
    When the agent runs "npm run build" in the terminal of "term" as "build"
    Then operation "build" reads running with effectState partial
    When the clock advances by 2 seconds
    Then operation "build" reads failed with effectState complete
    And operation "build" reports exit code 1
    And Lomi saw 1 "process.exited" effect

  @OP-02 @OP-04
  Scenario: A command runs on Lomi's clock and settles once
    Given the agent is connected to workspace "ws-alpha"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent runs "npm test" in the terminal of "term" as "tests"
    # checks OP-04
    Then operation "tests" reads running with effectState partial
    When the clock advances by 1 second
    # checks OP-02
    Then operation "tests" reads running
    When the clock advances by 1 second
    # checks OP-04
    Then operation "tests" reads succeeded with effectState complete
    And operation "tests" reports exit code 0
    # checks OP-02
    And the events of workspace "ws-alpha" show "tests" reaching succeeded

  @OP-02
  Scenario: A failed operation stays failed; a retry returns it as it is
    Given the agent is connected to workspace "ws-alpha"
    And the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And Lomi fails the held dispatch of "held"
    Then operation "held" reads failed with effectState none
    When the agent retries "held"
    Then the reply returns the prior operation "held"
    And the reply's operation reads failed with effectState none
    And Lomi saw 1 dispatch of "held"

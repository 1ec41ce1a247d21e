Feature: Cancellation
  Cancel takes queued work back with nothing done, asks running work to stop, and never undoes
  what already happened.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @CANCEL-01
  Scenario: A queued operation cancels with nothing dispatched
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    Then the reply shows state queued
    When the agent cancels "second"
    Then the cancel outcome is cancelled
    And operation "second" reads cancelled with effectState none
    And Lomi saw 0 dispatches of "second"
    When Lomi completes the held dispatch of "first"
    Then operation "first" reads succeeded
    And operation "second" reads cancelled with effectState none
    And Lomi saw 0 dispatches of "second"

  @CANCEL-01 @OP-02
  Scenario: A queued operation is dispatched once the one ahead of it settles
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    Then operation "second" reads queued
    When Lomi fails the held dispatch of "first"
    Then operation "second" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "second"

  @CANCEL-02
  Scenario: Running work that honours the cancellation settles cancelled with nothing done
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the agent cancels "held"
    Then the cancel outcome is cancelling
    And operation "held" reads cancelling
    When Lomi honours the cancellation of "held"
    Then operation "held" reads cancelled with effectState none
    And the workspace "ws-alpha" has 0 terminal panels

  @CANCEL-02
  Scenario: Running work that finishes first settles as it finished
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the agent cancels "held"
    Then the cancel outcome is cancelling
    When Lomi completes the held dispatch of "held"
    Then operation "held" reads succeeded with effectState complete
    And the workspace "ws-alpha" has 1 terminal panel

  @CANCEL-02 @CANCEL-04
  Scenario: A command that honours Ctrl+C settles cancelled, its process start not undone
    Given the agent creates a terminal "Dev" in workspace "ws-alpha" as "term"
    When the agent runs "npm run dev" in the terminal of "term" as "dev"
    And the agent cancels "dev"
    Then the cancel outcome is cancelled or cancelling
    And operation "dev" reads cancelled with effectState partial
    And Lomi saw 1 "process.started" effect
    And Lomi saw 1 "interrupt.sent" effect

  @CANCEL-02
  Scenario: A command that ignores Ctrl+C stays cancelling until it exits by itself
    Given the agent creates a terminal "Logs" in workspace "ws-alpha" as "term"
    When the agent runs "tail -f server.log" in the terminal of "term" as "tail"
    And the agent cancels "tail"
    Then the cancel outcome is cancelling
    And operation "tail" reads cancelling with effectState partial
    When the clock advances by 30 seconds
    Then operation "tail" reads succeeded with effectState complete
    And the events of workspace "ws-alpha" show "tail" reaching succeeded through "cancelling"

  @CANCEL-03
  Scenario: Cancelling a completed terminal creation changes nothing
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And operation "first" reads succeeded
    And the agent cancels "first"
    Then the cancel outcome is already_settled
    And operation "first" reads succeeded with effectState complete
    And the workspace "ws-alpha" has 1 terminal panel

  @CANCEL-03
  Scenario: Cancelling a finished command does not undo its process start
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent runs "npm test" in the terminal of "term" as "tests"
    And the clock advances by 2 seconds
    And operation "tests" reads succeeded
    And the agent cancels "tests"
    Then the cancel outcome is already_settled
    And operation "tests" reads succeeded with effectState complete
    And Lomi saw 0 "interrupt.sent" effects

  @CANCEL-03
  Scenario: Cancelling twice is the same as cancelling once
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the agent cancels "held"
    And Lomi honours the cancellation of "held"
    And the agent cancels "held"
    Then the cancel outcome is already_settled or cancelling
    And operation "held" reads cancelled with effectState none

  @CANCEL-01
  Scenario: Cancelling an operation that does not exist is not found
    When the agent calls lomi_operation_cancel with:
      """
      { "operationId": "op-does-not-exist" }
      """
    Then the reply is the error NOT_FOUND

@needs-crash
Feature: outcome_unknown after a crash
  When the broker dies while Lomi holds a dispatch, the restarted broker cannot know the effect:
  the operation reads outcome_unknown, is never dispatched again, and a retry returns it.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @DUR-01 @OP-03
  Scenario: A crash while the dispatch is held natively leaves outcome_unknown
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    Then operation "held" reads running
    When the broker crashes and restarts
    And the agent reads operation "held"
    # checks OP-03
    Then the read was not an MCP error
    # checks DUR-01
    And operation "held" reads outcome_unknown with effectState unknown
    And Lomi saw 1 dispatch of "held"
    And Lomi recorded no replay

  @DUR-03 @IDEM-01
  Scenario: Retrying the original request after the restart returns the outcome_unknown operation
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the broker crashes and restarts
    And the agent retries "held"
    Then the reply returns the prior operation "held"
    And the reply's operation reads outcome_unknown with effectState unknown
    And Lomi saw 1 dispatch of "held"

  @DUR-04
  Scenario: A native settlement that arrives after the restart does not change outcome_unknown
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the broker crashes and restarts
    And Lomi completes the held dispatch of "held"
    Then operation "held" reads outcome_unknown with effectState unknown
    And the workspace "ws-alpha" has 1 terminal panel

  @DUR-04
  Scenario: Lomi finishes held work while the broker is down; the restarted broker still says outcome_unknown
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the broker crashes
    And Lomi completes the held dispatch of "held"
    And the broker restarts
    Then operation "held" reads outcome_unknown with effectState unknown
    And Lomi saw 1 dispatch of "held"
    And Lomi recorded no replay

  @DUR-02
  Scenario: Settled receipts survive a crash unchanged
    When the agent creates a terminal "Done" in workspace "ws-alpha" as "done"
    And operation "done" reads succeeded with effectState complete
    And the broker crashes and restarts
    Then operation "done" reads succeeded with effectState complete
    And operation "done" carries a terminal session and a lease

  @DUR-01
  Scenario: A queued operation at the crash is outcome_unknown and never dispatched
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    And the broker crashes and restarts
    Then operation "second" reads outcome_unknown with effectState unknown
    And operation "first" reads outcome_unknown with effectState unknown
    And Lomi saw 0 dispatches of "second"

  @DUR-01
  Scenario: A running command at the crash is outcome_unknown though it goes on natively
    Given the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"
    When the agent runs "npm test" in the terminal of "term" as "tests"
    And the broker crashes and restarts
    And the clock advances by 5 seconds
    Then operation "tests" reads outcome_unknown with effectState unknown
    And Lomi saw 1 "process.started" effect
    And Lomi saw 1 dispatch of "tests"

  @EPOCH-01
  Scenario: A retry epoch from before the restart grants no new submission
    When the broker crashes and restarts
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "late"
    Then the reply is the error RETRY_EPOCH_INVALID
    And Lomi saw no dispatch at all
    When the agent connects to workspace "ws-alpha"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "fresh"
    Then the reply admits a new operation

  @EPOCH-01 @IDEM-05
  Scenario: A retry epoch from before the restart still finds its own receipts by key
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the broker crashes and restarts
    And the agent looks up "held" by its retry identity
    Then the reply names operation "held"
    And the reply's operation reads outcome_unknown with effectState unknown

  @OP-02 @DUR-01
  Scenario: The feed shows the recovery transition once
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "held"
    And the broker crashes and restarts
    Then the events of workspace "ws-alpha" show "held" reaching outcome_unknown

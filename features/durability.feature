Feature: Durable reservation before dispatch
  The receipt is written before anything is sent to Lomi. A reservation that cannot be written
  blocks the effect; a crash at any point afterwards leaves outcome_unknown, never a replay.
  The scenarios tagged @needs-faults arm the broker's fault hooks (LOMI_BROKER_FAULTS).

  @DUR-05 @needs-faults
  Scenario: A reservation that cannot be written blocks the effect
    Given the broker runs with the fault hook "fail-reserve" armed
    And the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    Then the reply is the error STORE_UNAVAILABLE
    And Lomi saw no dispatch at all
    And the workspace "ws-alpha" has 0 terminal panels
    When the agent retries "first"
    Then the reply admits a new operation
    And Lomi saw 1 dispatch of "first"

  @DUR-06 @DUR-01 @needs-crash @needs-faults
  Scenario: A crash right after the reservation leaves a receipt that was never dispatched
    Given the broker runs with the fault hook "crash-after-reserve" armed
    And the agent is connected to workspace "ws-alpha"
    When the broker dies during the next call
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent looks up "first" by its retry identity
    Then the reply's operation reads outcome_unknown with effectState unknown
    And Lomi saw 0 dispatches of "first"
    When the agent retries "first"
    Then the reply returns the prior operation "first"
    And the reply's operation reads outcome_unknown with effectState unknown
    And Lomi saw 0 dispatches of "first"

  @DUR-06 @DUR-01 @needs-crash @needs-faults
  Scenario: A crash right after the dispatch leaves outcome_unknown though Lomi did the work
    Given the broker runs with the fault hook "crash-after-dispatch" armed
    And the agent is connected to workspace "ws-alpha"
    When the broker dies during the next call
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent looks up "first" by its retry identity
    Then the reply names the operation Lomi dispatched for "first"
    And the reply's operation reads outcome_unknown with effectState unknown
    And Lomi saw 1 dispatch of "first"
    And Lomi recorded no replay
    And the workspace "ws-alpha" has 1 terminal panel

  @DUR-06 @DUR-04 @needs-crash @needs-faults
  Scenario: A crash between learning the settlement and recording it leaves outcome_unknown
    Given the broker runs with the fault hook "crash-before-settle" armed
    And the agent is connected to workspace "ws-alpha"
    And the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And Lomi completes the held dispatch of "first"
    And the broker dies during the next call
    And the agent reads operation "first"
    Then operation "first" reads outcome_unknown with effectState unknown
    And Lomi saw 1 dispatch of "first"
    And Lomi recorded no replay

  @DUR-07
  Scenario: A second broker instance cannot open a store in use
    Given the agent is connected to workspace "ws-alpha"
    Then a second broker instance on the same store is refused
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    Then operation "first" reads succeeded

  @EVT-03 @needs-crash
  Scenario: The events cursor and the receipts survive a broker restart
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent reads the events of workspace "ws-alpha"
    Then the page shows "first" reaching succeeded
    When the broker crashes and restarts
    And the agent connects to workspace "ws-alpha"
    And the agent creates a terminal "More" in workspace "ws-alpha" as "second"
    And the agent reads the events of workspace "ws-alpha"
    Then the page shows "second" reaching succeeded
    And the page shows no event of "first"

  @DUR-08 @needs-crash @needs-kill-at-start
  Scenario: A broker killed at any moment of its first start opens its store on the next start
    Given the broker is killed 10 times while it starts on a new store
    # checks DUR-08
    And the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Done" in workspace "ws-alpha" as "done"
    Then operation "done" reads succeeded with effectState complete
    When the broker crashes and restarts
    Then operation "done" reads succeeded with effectState complete

Feature: Store capacity and deliberate maintenance
  The store admits at most 4,096 receipts and 4,096 retry epochs. Past that nothing is admitted
  and nothing dispatched until the user approves a reconciliation; expired records stay until then.
  The store is filled through the broker's own tools.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @CAP-01 @CAP-04 @CAP-05 @slow
  Scenario: A full store refuses new operations until a deliberate reconciliation
    Given the agent has filled the receipt store through the broker
    # checks CAP-05
    Then the store status shows 4096 receipts of 4096
    # checks CAP-01
    When the agent creates a terminal "One more" in workspace "ws-alpha" as "extra"
    Then the reply is the error RESOURCE_EXHAUSTED
    And Lomi saw 0 dispatches of "extra"
    When the agent connects to workspace "ws-alpha"
    And the agent creates a terminal "One more" in workspace "ws-alpha" as "extra-2"
    Then the reply is the error RESOURCE_EXHAUSTED
    # checks CAP-05
    When the clock advances by 25 hours
    Then the store status shows 4096 receipts of 4096
    # checks CAP-04
    When the agent asks to reconcile the store
    Then the reconciliation awaits the user
    When the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 4096 receipts and 2 retry epochs
    When the agent connects to workspace "ws-alpha"
    And the agent refreshes the panels of workspace "ws-alpha"
    And the agent creates a terminal "After" in workspace "ws-alpha" as "after"
    Then the reply admits a new operation

  @CAP-02 @slow
  Scenario: At 4,096 retry epochs lomi_connect answers RESOURCE_EXHAUSTED
    Given the agent has filled the retry epochs through the broker
    When the agent connects to workspace "ws-alpha"
    Then the reply is the error RESOURCE_EXHAUSTED

  @CAP-04
  Scenario: Reconciliation keeps unfinished and outcome_unknown operations unless named
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Held" in workspace "ws-alpha" as "held"
    And the clock advances by 25 hours
    And the agent asks to reconcile the store
    And the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 0 receipts and 0 retry epochs
    And operation "held" reads running

  @CAP-04 @needs-crash
  Scenario: An outcome_unknown operation is forgotten only when named
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Held" in workspace "ws-alpha" as "held"
    And the broker crashes and restarts
    And operation "held" reads outcome_unknown
    And the clock advances by 25 hours
    And the agent asks to reconcile the store
    And the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 0 receipts and 0 retry epochs
    And the store status shows 1 outcome_unknown operation
    When the agent asks to reconcile the store forgetting "held"
    And the user approves the store reconciliation
    And the agent asks to reconcile the store forgetting "held"
    Then the reconciliation removed 1 receipt and 1 retry epoch
    And the store status shows 0 outcome_unknown operations

  @CAP-04
  Scenario: A declined reconciliation removes nothing
    When the agent creates a terminal "Done" in workspace "ws-alpha" as "done"
    And the clock advances by 25 hours
    And the agent asks to reconcile the store
    And the user declines the store reconciliation
    And the agent asks to reconcile the store
    Then the reply is the error USER_DENIED
    And the store status shows 1 receipt of 4096

  @CAP-04
  Scenario: Retention runs from a receipt's last change, and the reply counts what it removed and what the store kept
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "Late" in workspace "ws-alpha" as "late"
    And the clock advances by 25 hours
    And Lomi completes the held dispatch of "late"
    Then operation "late" reads succeeded
    When the agent asks to reconcile the store
    And the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 0 receipts, 0 retry epochs and 0 events, and kept 1 receipt, 0 unfinished and 0 outcome_unknown
    When the clock advances by 25 hours
    And the agent asks to reconcile the store
    And the user approves the store reconciliation
    And the agent asks to reconcile the store
    Then the reconciliation removed 1 receipt, 1 retry epoch and 3 events, and kept 0 receipts, 0 unfinished and 0 outcome_unknown

  @CAP-04
  Scenario: A settled operation named in forgetOperationIds is removed whatever its age, an unknown one is ignored, and the user is asked about both
    When the agent creates a terminal "Done" in workspace "ws-alpha" as "done"
    Then operation "done" reads succeeded
    When the agent asks to reconcile the store forgetting "done" and the unknown operation "op-never-admitted"
    Then the store reconciliation the user is asked about names 24 hours and the operations "done" and "op-never-admitted"
    When the user approves the store reconciliation
    And the agent asks to reconcile the store forgetting "done" and the unknown operation "op-never-admitted"
    Then the reconciliation removed 1 receipt, 0 retry epochs and 3 events, and kept 0 receipts, 0 unfinished and 0 outcome_unknown

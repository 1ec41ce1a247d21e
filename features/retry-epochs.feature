Feature: Retry epochs
  An epoch from lomi_connect is valid 24 hours on Lomi's clock and is bound to the running broker
  instance and the connection. Past it, or from elsewhere, it grants no new submission.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @EPOCH-02
  Scenario: A retry epoch is valid for 24 hours on Lomi's clock
    Then the retry epoch of the agent for workspace "ws-alpha" expires 24 hours after Lomi's clock

  @EPOCH-03
  Scenario: Just before 24 hours the epoch still admits
    When the clock advances by 23 hours
    And the agent creates a terminal "Late" in workspace "ws-alpha" as "late"
    Then the reply admits a new operation

  @EPOCH-03
  Scenario: Past 24 hours the epoch admits nothing, and reconnecting gives a fresh one
    When the clock advances by 24 hours
    And the agent creates a terminal "Late" in workspace "ws-alpha" as "late"
    Then the reply is the error RETRY_EPOCH_EXPIRED
    And the error names the field "retryEpoch"
    And Lomi saw no dispatch at all
    When the agent connects to workspace "ws-alpha"
    And the agent creates a terminal "Fresh" in workspace "ws-alpha" as "fresh"
    Then the reply admits a new operation

  @EPOCH-03 @IDEM-01
  Scenario: After expiry a retry of an admitted request still returns its operation
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the clock advances by 25 hours
    And the agent retries "first"
    Then the reply returns the prior operation "first"
    And Lomi saw 1 dispatch of "first"

  @EPOCH-04 @needs-multi-connection
  Scenario: An epoch used from another connection of the same pairing grants nothing new
    Given agent "agent@2" is connected to workspace "ws-alpha"
    When agent "agent@2" creates a terminal "Borrowed" in workspace "ws-alpha" as "borrowed" under the retry epoch of the agent
    Then the reply is the error RETRY_EPOCH_INVALID
    And Lomi saw no dispatch at all

  @EPOCH-04
  Scenario: Another connection of the same pairing reads the pairing's receipts
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And agent "agent@2" reads operation "first"
    Then the reply names operation "first"

  @EPOCH-02 @CAP-03
  Scenario: Each lomi_connect gives a new epoch, and the old one stays in the store
    # checks EPOCH-02
    When the agent connects to workspace "ws-alpha"
    And the agent connects to workspace "ws-alpha"
    Then the store status shows 3 retry epochs, 0 of them expired
    # checks CAP-03
    When the clock advances by 25 hours
    Then the store status shows 3 retry epochs, 3 of them expired

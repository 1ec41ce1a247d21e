Feature: Decisions the user makes in Lomi
  An operation that needs the user waits in awaiting_user while Lomi shows the decision. Approval
  lets the work run; a denial settles it failed with USER_DENIED and nothing done. A change of the
  permissions settings section is such an operation: an agent does not widen its own permissions.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent reads the settings in workspace "ws-alpha"

  @OP-40 @AUTH-40
  Scenario: A permissions change waits for the user, with nothing changed, and runs once approved
    When the agent changes the permissions settings in workspace "ws-alpha" as "network" to:
      """
      { "allowNetwork": true }
      """
    Then the reply is ok
    # checks OP-40
    And the reply shows state awaiting_user
    And operation "network" reads awaiting_user with effectState none
    # checks OP-40, AUTH-40
    And Lomi shows the user a decision for "network"
    And Lomi saw 0 "settings.changed" effects
    # checks OP-40
    When the user approves the decision for "network"
    Then operation "network" reads succeeded with effectState complete
    And Lomi saw 1 "settings.changed" effect
    And Lomi shows the user no decision
    And the events of workspace "ws-alpha" show "network" reaching succeeded through "awaiting_user, running"
    # checks AUTH-40
    When the agent reads the settings in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "sections": { "permissions": { "settingsRevision": "2", "values": { "allowNetwork": true, "autoApproveCommands": false } } } }
      """

  @OP-40
  Scenario: The operation stays awaiting_user however long the user takes
    When the agent changes the permissions settings in workspace "ws-alpha" as "network" to:
      """
      { "allowNetwork": true }
      """
    And the clock advances by 1 hour
    Then operation "network" reads awaiting_user with effectState none
    And Lomi saw 0 "settings.changed" effects

  @OP-41 @AUTH-40
  Scenario: A denied permissions change settles failed with USER_DENIED and nothing changed
    When the agent changes the permissions settings in workspace "ws-alpha" as "commands" to:
      """
      { "autoApproveCommands": true }
      """
    And the user denies the decision for "commands"
    Then operation "commands" reads failed with effectState none
    And operation "commands" carries the error USER_DENIED
    And the read was not an MCP error
    And Lomi saw 0 "settings.changed" effects
    And Lomi shows the user no decision
    When the agent reads the settings in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "sections": { "permissions": { "settingsRevision": "1", "values": { "autoApproveCommands": false } } } }
      """

  @OP-41
  Scenario: Retrying a denied change returns the denial; it does not ask again
    When the agent changes the permissions settings in workspace "ws-alpha" as "commands" to:
      """
      { "autoApproveCommands": true }
      """
    And the user denies the decision for "commands"
    And operation "commands" reads failed
    And the agent retries "commands"
    Then the reply returns the prior operation "commands"
    And the reply's operation reads failed with effectState none
    And Lomi saw 1 dispatch of "commands"
    And Lomi shows the user no decision

  @AUTH-40
  Scenario: Sections other than permissions change without asking the user
    When the agent changes the appearance settings in workspace "ws-alpha" as "dark" to:
      """
      { "theme": "dark" }
      """
    Then the reply shows state succeeded
    And Lomi shows the user no decision

  @CANCEL-42
  Scenario: Cancelling an operation that awaits the user withdraws the decision, with nothing done
    When the agent changes the permissions settings in workspace "ws-alpha" as "network" to:
      """
      { "allowNetwork": true }
      """
    And the agent cancels "network"
    Then the cancel outcome is cancelled or cancelling
    And operation "network" reads cancelled with effectState none
    And Lomi shows the user no decision
    And Lomi saw 0 "settings.changed" effects

  @OP-40 @SERIAL-01
  Scenario: A second permissions change waits queued behind the one the user is deciding
    When the agent changes the permissions settings in workspace "ws-alpha" as "network" to:
      """
      { "allowNetwork": true }
      """
    And the agent changes the permissions settings in workspace "ws-alpha" as "commands" to:
      """
      { "autoApproveCommands": true }
      """
    # checks SERIAL-01
    Then operation "commands" reads queued
    And Lomi saw 0 dispatches of "commands"
    # checks OP-40
    When the user approves the decision for "network"
    Then operation "network" reads succeeded with effectState complete
    And operation "commands" reads failed with effectState none
    And operation "commands" carries the error REVISION_CONFLICT

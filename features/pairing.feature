Feature: Pairing, approval and explicit targets
  Nothing happens until the user approves the session; targets are IDs the pairing was approved for.

  @AUTH-01
  Scenario: Every tool answers PAIRING_REQUIRED until the user approves
    When the agent calls lomi_workspace_list
    Then the reply is the error PAIRING_REQUIRED
    And the error message is "Approve the pending session in Lomi Settings."
    When the agent calls lomi_connect with:
      """
      { "workspaceId": "ws-alpha" }
      """
    Then the reply is the error PAIRING_REQUIRED
    When the user approves the pending session of the agent
    And the agent calls lomi_workspace_list
    Then the reply is ok

  @AUTH-02
  Scenario: A denied session answers PAIRING_DENIED
    When the agent calls lomi_workspace_list
    Then the reply is the error PAIRING_REQUIRED
    When the user denies the pending session of the agent
    And the agent calls lomi_workspace_list
    Then the reply is the error PAIRING_DENIED

  @AUTH-03
  Scenario: A display name in place of a workspace ID is refused
    Given the agent is paired
    When the agent connects to workspace "Alpha"
    Then the reply is the error NOT_FOUND

  @AUTH-03
  Scenario: An operation aimed at a display name dispatches nothing
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "named" with workspaceId set to "Alpha"
    Then the reply is one of the errors "NOT_FOUND or RETRY_EPOCH_INVALID"
    And Lomi saw no dispatch at all

  @AUTH-04
  Scenario: A workspace left out of the approval is listed but refused
    Given the agent is paired
    When the agent calls lomi_workspace_list
    Then the reply lists workspace "ws-private" as approved: false
    When the agent connects to workspace "ws-private"
    Then the reply is the error WORKSPACE_NOT_APPROVED

  @AUTH-04
  Scenario: An approval for one workspace does not open another
    When the agent calls lomi_workspace_list
    Then the reply is the error PAIRING_REQUIRED
    When the user approves the pending session of the agent for workspace "ws-beta" only
    And the agent connects to workspace "ws-alpha"
    Then the reply is the error WORKSPACE_NOT_APPROVED
    When the agent connects to workspace "ws-beta"
    Then the reply is ok

  @AUTH-05
  Scenario: Another pairing's receipt answers as one that does not exist
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "mine"
    And agent "mallory" is connected to workspace "ws-alpha"
    Then agent "mallory" cannot tell "mine" from an operation that does not exist

  @AUTH-03
  Scenario: Panels are listed by workspace ID, not by display name
    Given the agent is paired
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "Alpha" }
      """
    Then the reply is the error NOT_FOUND

  @EVT-04 @EVT-01
  Scenario: Another pairing reads no events of this pairing's operations
    Given the agent is connected to workspace "ws-alpha"
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "mine"
    And agent "mallory" is connected to workspace "ws-alpha"
    And agent "mallory" reads the events of workspace "ws-alpha"
    # checks EVT-04
    Then the page has no events
    # checks EVT-01
    When the agent reads the events of workspace "ws-alpha"
    Then the page shows "mine" reaching succeeded

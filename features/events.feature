Feature: The events feed
  lomi_events_read is a bounded feed of operation-state metadata: every transition once, in order,
  and a cursor that goes on after an empty page.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @EVT-01
  Scenario: A completed operation's transitions appear once and in order
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    Then the events of workspace "ws-alpha" show "first" reaching succeeded

  @EVT-01
  Scenario: A cancelled queued operation shows exactly queued then cancelled
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    And the agent cancels "second"
    Then the events of workspace "ws-alpha" show "second" reaching cancelled straight from queued

  @EVT-04
  Scenario: Each workspace's feed shows the operations of that workspace
    Given the agent is connected to workspace "ws-beta"
    When the agent creates a terminal "Alpha" in workspace "ws-alpha" as "alpha"
    And the agent sends lomi_terminal_create as "beta" with:
      """
      { "workspaceId": "ws-beta", "projectId": "proj-api", "cwdRelative": "", "title": "Beta",
        "expectedRevision": "{{revision:ws-beta}}", "retryEpoch": "{{epoch:ws-beta}}", "requestKey": "create-beta" }
      """
    Then the reply is ok
    When the agent reads the events of workspace "ws-alpha"
    Then the page shows "alpha" reaching succeeded
    When the agent reads the events of workspace "ws-beta"
    Then the page shows "beta" reaching succeeded

  @EVT-02
  Scenario: The cursor continues after an empty page
    When the agent reads the events of workspace "ws-alpha"
    Then the page has no events
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "first"
    And the agent reads the events of workspace "ws-alpha"
    Then the page shows "first" reaching succeeded
    When the agent reads the events of workspace "ws-alpha"
    Then the page has no events

  @EVT-01 @AUTH-04
  Scenario: The feed of a workspace not approved for the pairing is refused
    When the agent calls lomi_events_read with:
      """
      { "workspaceId": "ws-private" }
      """
    Then the reply is the error WORKSPACE_NOT_APPROVED

  @EVT-01 @SCH-05
  Scenario: A page larger than the documented maximum is refused
    When the agent calls lomi_events_read with:
      """
      { "workspaceId": "ws-alpha", "limit": 201 }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "limit"

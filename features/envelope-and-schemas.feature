Feature: Result envelope and input schemas
  Every reply carries the Lomi envelope; inputs are strict camelCase objects; rejected input
  dispatches nothing. (Every reply in every scenario is also checked against the envelope rules.)

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @ENV-04
  Scenario: tools/list publishes strict input schemas and output schemas for every tool
    Then every tool in tools/list has an input schema that rejects unknown fields and an output schema
    And every tool in tools/list publishes the catalogue's output schema and annotations
    And tools/list includes "lomi_workspace_list, lomi_connect, lomi_panel_list, lomi_terminal_create, lomi_operation_get, lomi_operation_lookup, lomi_operation_cancel, lomi_events_read"

  @ENV-01 @ENV-02 @ENV-03
  Scenario: An ok reply and an error reply both carry the envelope
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-alpha" }
      """
    Then the reply is ok
    # checks ENV-01
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-nowhere" }
      """
    Then the reply is the error NOT_FOUND

  @ENV-01
  Scenario: A tool that does not exist answers with the envelope
    When the agent calls the tool "lomi_teleport", which the catalogue lacks
    Then the reply is the error UNKNOWN_TOOL

  @SCH-01
  Scenario: An unknown field on an operation is rejected by name and nothing is dispatched
    When the agent calls lomi_terminal_create with:
      """
      { "workspaceId": "ws-alpha", "cwdRelative": "", "title": "Tests", "expectedRevision": "{{revision:ws-alpha}}",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1", "shell": "zsh" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "shell"
    And Lomi saw no dispatch at all

  @SCH-01
  Scenario: An unknown field on an observation is rejected by name
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-alpha", "includeHidden": true }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "includeHidden"

  @SCH-01
  Scenario: snake_case is not camelCase: work_space_id is an unknown field
    When the agent calls lomi_panel_list with:
      """
      { "workspace_id": "ws-alpha" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "workspace_id"

  @SCH-02
  Scenario: An observation does not take the common retry fields
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-alpha", "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"

  @SCH-02
  Scenario: An operation read does not take a request key
    When the agent calls lomi_operation_get with:
      """
      { "operationId": "op-x", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"

  @SCH-05
  Scenario: A missing requestKey is rejected by name and nothing is dispatched
    When the agent calls lomi_terminal_create with:
      """
      { "workspaceId": "ws-alpha", "cwdRelative": "", "title": "Tests", "expectedRevision": "{{revision:ws-alpha}}",
        "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"
    And Lomi saw no dispatch at all

  @SCH-05
  Scenario: A number where a decimal revision string belongs is rejected
    When the agent calls lomi_terminal_create with:
      """
      { "workspaceId": "ws-alpha", "cwdRelative": "", "title": "Tests", "expectedRevision": 7,
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "expectedRevision"
    And Lomi saw no dispatch at all

  @SCH-04
  Scenario: A working directory that leaves the project is refused natively before any dispatch
    When the agent creates a terminal "Escape" in workspace "ws-alpha" as "escape" with cwdRelative set to "../../etc"
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "cwdRelative"
    And Lomi saw no dispatch at all

  @SCH-04
  Scenario: An absolute working directory is refused natively
    When the agent creates a terminal "Escape" in workspace "ws-alpha" as "escape" with cwdRelative set to "/tmp"
    Then the reply is the error OUTSIDE_PROJECT
    And Lomi saw no dispatch at all

  @SCH-04
  Scenario: A working directory inside the project is accepted
    When the agent creates a terminal "Src" in workspace "ws-alpha" as "src" with cwdRelative set to "src/../lib"
    Then the reply is ok
    And operation "src" reads succeeded

  @SCH-06
  Scenario: A "__proto__" key on an operation is an unknown field and nothing is dispatched
    When the agent calls lomi_workspace_close with:
      """
      { "workspaceId": "ws-alpha", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "close-proto", "__proto__": { "force": true } }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "__proto__"
    And Lomi saw no dispatch at all

  @SCH-06
  Scenario: "constructor" and "prototype" keys are unknown fields
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-alpha", "constructor": "Object" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "constructor"
    When the agent calls lomi_panel_list with:
      """
      { "workspaceId": "ws-alpha", "prototype": {} }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "prototype"

  @SCH-06
  Scenario: Arguments that are not a JSON object are refused and nothing is dispatched
    When the agent calls lomi_workspace_close with arguments that are not an object:
      """
      [ "ws-alpha" ]
      """
    Then the arguments are refused: the error INVALID_ARGUMENT, or MCP's invalid-params JSON-RPC error
    And Lomi saw no dispatch at all

Feature: Settings
  Lomi's settings come in sections (editor, terminal, appearance, permissions), each with its own
  settingsRevision: a compare-and-set token for that section alone. Lomi's own validators hold
  narrower ranges than the schema.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @ENV-04
  Scenario: tools/list publishes the settings, Chat and Git tools with strict input and output schemas
    Then tools/list includes "lomi_settings_read, lomi_settings_update, lomi_chat_read, lomi_chat_draft_save, lomi_chat_send, lomi_git_status, lomi_git_commit"
    And every tool in tools/list has an input schema that rejects unknown fields and an output schema

  @REV-40
  Scenario: A change with the section's current settingsRevision is saved, and only that section's revision moves
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the editor settings in workspace "ws-alpha" as "bigger" to:
      """
      { "fontSize": 16 }
      """
    Then the reply is ok
    And operation "bigger" reads succeeded with effectState complete
    And Lomi saw 1 "settings.changed" effect
    When the agent reads the settings in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "sections": {
          "editor": { "settingsRevision": "2", "values": { "fontSize": 16, "tabSize": 2, "wordWrap": false } },
          "terminal": { "settingsRevision": "1", "values": { "fontSize": 13 } } } }
      """

  @REV-40
  Scenario: A stale expectedSettingsRevision is refused and nothing is changed
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the editor settings in workspace "ws-alpha" as "first" to:
      """
      { "fontSize": 16 }
      """
    And operation "first" reads succeeded
    And the agent changes the editor settings in workspace "ws-alpha" as "second" to:
      """
      { "fontSize": 18 }
      """
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedSettingsRevision"
    And Lomi saw 0 dispatches of "second"
    And Lomi saw 1 "settings.changed" effect
    When the agent reads the settings in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "sections": { "editor": { "settingsRevision": "2", "values": { "fontSize": 16 } } } }
      """

  @REV-40
  Scenario: Another section's change is not stale when one section moved
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the editor settings in workspace "ws-alpha" as "editor" to:
      """
      { "wordWrap": true }
      """
    And operation "editor" reads succeeded
    And the agent changes the appearance settings in workspace "ws-alpha" as "theme" to:
      """
      { "theme": "dark" }
      """
    Then the reply is ok
    And operation "theme" reads succeeded with effectState complete
    And Lomi saw 2 "settings.changed" effects

  @SCH-40
  Scenario: A font size outside Lomi's range is refused by the native validator, with nothing dispatched
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the terminal settings in workspace "ws-alpha" as "huge" to:
      """
      { "fontSize": 200 }
      """
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "values.fontSize"
    And Lomi saw no dispatch at all

  @SCH-41
  Scenario: A setting of another section is rejected by name, with nothing dispatched
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the editor settings in workspace "ws-alpha" as "misplaced" to:
      """
      { "fontSize": 15, "theme": "dark" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "values.theme"
    And Lomi saw no dispatch at all

  @SCH-41
  Scenario: A change must name at least one setting
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the appearance settings in workspace "ws-alpha" as "empty" to:
      """
      {}
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "values"
    And Lomi saw no dispatch at all

  @SCH-01
  Scenario: An unknown field on a settings change is rejected by name, with nothing dispatched
    When the agent calls lomi_settings_update with:
      """
      { "workspaceId": "ws-alpha", "section": "editor", "values": { "fontSize": 16 }, "expectedSettingsRevision": "1",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1", "restartEditor": true }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "restartEditor"
    And Lomi saw no dispatch at all

  @SCH-05
  Scenario: A section that does not exist is rejected by name, with nothing dispatched
    When the agent calls lomi_settings_update with:
      """
      { "workspaceId": "ws-alpha", "section": "keyboard", "values": { "fontSize": 16 }, "expectedSettingsRevision": "1",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "section"
    And Lomi saw no dispatch at all

  @SCH-02
  Scenario: Reading the settings does not take the common retry fields
    When the agent calls lomi_settings_read with:
      """
      { "workspaceId": "ws-alpha", "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"

  @AUTH-04
  Scenario: Settings are read only through a workspace approved for this session
    When the agent calls lomi_settings_read with:
      """
      { "workspaceId": "ws-private" }
      """
    Then the reply is the error WORKSPACE_NOT_APPROVED

  @CANCEL-43
  Scenario: Cancelling a completed settings change does not undo the save
    Given the agent reads the settings in workspace "ws-alpha"
    When the agent changes the editor settings in workspace "ws-alpha" as "tabs" to:
      """
      { "tabSize": 4 }
      """
    And operation "tabs" reads succeeded
    And the agent cancels "tabs"
    Then the cancel outcome is already_settled
    And operation "tabs" reads succeeded with effectState complete
    When the agent reads the settings in workspace "ws-alpha"
    Then the reply's data includes:
      """
      { "sections": { "editor": { "settingsRevision": "2", "values": { "tabSize": 4 } } } }
      """

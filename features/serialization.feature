Feature: One operation at a time per target
  Operations on one target (docs/native-bridge.md, "Serialization targets") are dispatched one at a
  time, in admission order: while one is dispatched and unsettled, the next waits queued.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @SERIAL-01
  Scenario: A second operation on a busy workspace waits queued and goes once the first settles
    Given the next dispatch of lomi_terminal_create is held
    When the agent creates a terminal "First" in workspace "ws-alpha" as "first"
    And the agent creates a terminal "Second" in workspace "ws-alpha" as "second"
    Then operation "second" reads queued
    And Lomi saw 0 dispatches of "second"
    When Lomi fails the held dispatch of "first"
    Then operation "second" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "second"

  @SERIAL-01
  Scenario: Writes to three files of one workspace are dispatched one at a time, in the order they were admitted
    Given the next dispatch of lomi_file_write is held
    When the agent reads the file "README.md" in workspace "ws-alpha"
    And the agent reads the file "src/app.ts" in workspace "ws-alpha"
    And the agent reads the file "scripts/test.cmd" in workspace "ws-alpha"
    And the agent writes the text "# First" to "README.md" in workspace "ws-alpha" as "first"
    And the agent writes the text "second" to "src/app.ts" in workspace "ws-alpha" as "second"
    And the agent writes the text "third" to "scripts/test.cmd" in workspace "ws-alpha" as "third"
    Then operation "second" reads queued
    And operation "third" reads queued
    And Lomi saw 0 dispatches of "second"
    When Lomi completes the held dispatch of "first"
    Then operation "third" reads succeeded with effectState complete
    And operation "second" reads succeeded with effectState complete
    And Lomi dispatched "second" before "third"

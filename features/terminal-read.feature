Feature: Terminal output through lomi_terminal_read
  A terminal's output is read in bounded pages that a cursor continues. It is the terminal's own
  output: the command lines, their scripted output and the echo of input. The events feed never
  carries it.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent creates a terminal "Tests" in workspace "ws-alpha" as "term"

  @INPUT-17
  Scenario: A command's output is read in bounded pages that the cursor continues
    When the agent runs "npm test" in the terminal of "term" as "tests"
    Then reading the terminal of "term" 5 characters at a time gives "$ npm test\n42 passing\n"
    And reading the terminal of "term" 8192 characters at a time gives "$ npm test\n42 passing\n"

  @INPUT-17
  Scenario: Later output continues after the cursor of the last page
    When the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}" }
      """
    Then the reply is ok
    And the terminal page has "" and continues at "0"
    When the agent runs "npm run build" in the terminal of "term" as "build"
    And the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "cursor": "0", "limit": 16 }
      """
    Then the terminal page has "$ npm run build\n" and continues at "16"
    When the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "cursor": "16" }
      """
    Then the terminal page has "error TS2322\n" and continues at "29"

  @INPUT-17 @EVT-01
  Scenario: The events feed carries operation states, never the terminal's output
    When the agent runs "npm test" in the terminal of "term" as "tests"
    And the clock advances by 2 seconds
    # checks EVT-01
    Then the events of workspace "ws-alpha" show "tests" reaching succeeded
    # checks INPUT-17
    And no event of workspace "ws-alpha" carries "42 passing"

  @INPUT-17 @SCH-04
  Scenario: A cursor past the end of the output is refused
    When the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "cursor": "999" }
      """
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "cursor"

  @SCH-05
  Scenario: A page larger than the documented maximum is refused
    When the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "limit": 8193 }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "limit"

  @SCH-02
  Scenario: Reading output takes no retry epoch
    When the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"

  @REV-02
  Scenario: The output of a terminal session that restarted is stale
    When the runtime of the terminal of "term" restarts
    And the agent calls lomi_terminal_read with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}" }
      """
    Then the reply is the error STALE_RUNTIME
    And the error names the field "terminalSessionId"

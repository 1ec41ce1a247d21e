Feature: Ctrl+C through lomi_terminal_interrupt
  An interrupt is ordered input of its terminal. Its reply confirms that Ctrl+C was dispatched, not
  that anything exited: the command's own lomi_terminal_run operation tells the rest.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent creates a terminal "Dev" in workspace "ws-alpha" as "term"
    And the agent acquires the lease of the terminal of "term" as "lease"

  @INPUT-12
  Scenario: A command that ignores Ctrl+C keeps its operation running
    When the agent runs "tail -f server.log" in the terminal of "term" as "tail"
    And the agent sends Ctrl+C as input 1 under lease "lease"
    Then the reply confirms the interrupt was dispatched, not that the command exited
    And operation "tail" reads running with effectState partial
    And Lomi saw 1 "interrupt.sent" effect
    And Lomi saw 0 "process.exited" effects
    When the clock advances by 30 seconds
    Then operation "tail" reads succeeded with effectState complete

  @INPUT-12 @INPUT-13
  Scenario: A command that honours Ctrl+C settles its own operation
    When the agent runs "npm run dev" in the terminal of "term" as "dev"
    And the agent sends Ctrl+C as input 1 under lease "lease"
    # checks INPUT-12
    Then the reply confirms the interrupt was dispatched, not that the command exited
    # checks INPUT-13
    And operation "dev" reads failed with effectState partial
    And operation "dev" reports exit code 130
    And Lomi saw 1 "process.exited" effect
    And the events of workspace "ws-alpha" show "dev" reaching failed

  @INPUT-12
  Scenario: Ctrl+C with no command running is still only a dispatch
    When the agent sends Ctrl+C as input 1 under lease "lease"
    Then the reply confirms the interrupt was dispatched, not that the command exited
    And Lomi saw 1 "interrupt.sent" effect
    And reading the terminal of "term" 100 characters at a time gives "^C\n"

  @INPUT-14 @INPUT-03
  Scenario: A repeated interrupt acknowledges the first and sends Ctrl+C once
    When the agent runs "tail -f server.log" in the terminal of "term" as "tail"
    And the agent sends Ctrl+C as input 1 under lease "lease"
    And the agent sends Ctrl+C as input 1 under lease "lease"
    Then the reply acknowledges the prior dispatch of input 1 under lease "lease"
    And Lomi saw 1 "interrupt.sent" effect

  @INPUT-14 @INPUT-04
  Scenario: Ctrl+C shares the inputSequence of the terminal's text input
    When the agent sends input 1 "npm run dev\n" under lease "lease"
    And the agent sends Ctrl+C as input 1 under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_CONFLICT
    And Lomi saw 0 "interrupt.sent" effects
    When the agent sends Ctrl+C as input 3 under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_GAP
    When the agent sends Ctrl+C as input 2 under lease "lease"
    Then the reply acknowledges a new dispatch
    And reading the terminal of "term" 100 characters at a time gives "npm run dev\n^C\n"

  @INPUT-01
  Scenario: An interrupt needs the lease, and without it nothing is sent
    When the agent runs "npm run dev" in the terminal of "term" as "dev"
    And the agent calls lomi_terminal_interrupt with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-made-up", "inputSequence": "1" }
      """
    Then the reply is the error LEASE_REQUIRED
    And Lomi saw 0 "interrupt.sent" effects
    And operation "dev" reads running with effectState partial

  @SCH-01 @INPUT-07
  Scenario: An interrupt takes no payload and no request key
    When the agent calls lomi_terminal_interrupt with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "{{lease:lease}}", "inputSequence": "1", "text": "\u0003" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "text"
    When the agent calls lomi_terminal_interrupt with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "{{lease:lease}}", "inputSequence": "1", "requestKey": "ctrl-c-1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"
    And Lomi saw 0 "interrupt.sent" effects

Feature: Leases and ordered terminal input
  Terminal input carries a lease and a decimal inputSequence instead of a request key. The next
  sequence is sent once; the same sequence with the exact payload acknowledges the earlier dispatch
  and sends nothing; anything else out of order is refused. Lomi's ledger shows what was really sent.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent creates a terminal "Shell" in workspace "ws-alpha" as "term"
    And operation "term" reads succeeded

  @ENV-04
  Scenario: tools/list publishes the lease, input and Android runtime tools with strict schemas
    Then tools/list includes "lomi_terminal_read, lomi_lease_acquire, lomi_terminal_input, lomi_terminal_interrupt, lomi_android_input, lomi_android_launch"
    And every tool in tools/list has an input schema that rejects unknown fields and an output schema

  @INPUT-02 @OP-05
  Scenario: The lease a terminal was created with takes input, starting at 1
    When the agent takes the lease the terminal of "term" came with as "created"
    And the agent sends input 1 "ls\n" under lease "created"
    Then the reply acknowledges a new dispatch
    And Lomi saw 1 "input.sent" effect

  @INPUT-02 @INPUT-03
  Scenario: The same sequence with the exact payload acknowledges the prior dispatch and sends nothing
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 1 "ls\n" under lease "lease"
    Then the reply acknowledges a new dispatch
    When the agent sends input 1 "ls\n" under lease "lease"
    Then the reply acknowledges the prior dispatch of input 1 under lease "lease"
    And Lomi saw 1 "input.sent" effect
    And reading the terminal of "term" 100 characters at a time gives "ls\n"

  @INPUT-04
  Scenario: The same sequence with another payload is refused and nothing is sent
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 1 "ls\n" under lease "lease"
    And the agent sends input 1 "rm -rf build\n" under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_CONFLICT
    And the error names the field "inputSequence"
    And Lomi saw 1 "input.sent" effect
    And reading the terminal of "term" 100 characters at a time gives "ls\n"

  @INPUT-05
  Scenario: A sequence that skips ahead is refused, naming the next one, and nothing is sent
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 2 "ls\n" under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_GAP
    And the error says the next inputSequence is "1"
    And Lomi saw 0 "input.sent" effects
    When the agent sends input 1 "ls\n" under lease "lease"
    And the agent sends input 3 "pwd\n" under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_GAP
    And the error says the next inputSequence is "2"
    And Lomi saw 1 "input.sent" effect

  @INPUT-06 @INPUT-03
  Scenario: A sequence from the past is a conflict with another payload, and acknowledged with its own
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 1 "ls\n" under lease "lease"
    And the agent sends input 2 "pwd\n" under lease "lease"
    And the agent sends input 1 "whoami\n" under lease "lease"
    Then the reply is the error INPUT_SEQUENCE_CONFLICT
    And the error says the next inputSequence is "3"
    When the agent sends input 1 "ls\n" under lease "lease"
    Then the reply acknowledges the prior dispatch of input 1 under lease "lease"
    And Lomi saw 2 "input.sent" effects
    And reading the terminal of "term" 4 characters at a time gives "ls\npwd\n"

  @INPUT-15
  Scenario: Identical inputs sent at the same moment are sent once
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 1 "make\n" under lease "lease" twice at once
    Then Lomi saw 1 "input.sent" effect

  @INPUT-01
  Scenario: Input without a lease of this runtime is refused and nothing is sent
    When the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-made-up", "inputSequence": "1", "text": "ls\n" }
      """
    Then the reply is the error LEASE_REQUIRED
    And the error names the field "leaseId"
    And Lomi saw 0 "input.sent" effects

  @INPUT-01
  Scenario: A lease of another terminal grants no input here
    Given the agent creates a terminal "Other" in workspace "ws-alpha" as "other"
    When the agent acquires the lease of the terminal of "other" as "other-lease"
    And the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "{{lease:other-lease}}", "inputSequence": "1", "text": "ls\n" }
      """
    Then the reply is the error LEASE_REQUIRED
    And Lomi saw 0 "input.sent" effects

  # The other pairing takes the lease in Lomi, as a client served by another broker would: the
  # takeover is Lomi's, and a broker serving one connection at a time is judged on it too.
  @INPUT-08 @INPUT-18
  Scenario: A takeover by another pairing expires the previous holder's lease
    When the agent acquires the lease of the terminal of "term" as "mine"
    And the agent sends input 1 "ls\n" under lease "mine"
    And client "bob" of Lomi takes over the lease of the terminal of "term"
    # checks INPUT-08
    And the agent sends input 2 "pwd\n" under lease "mine"
    Then the reply is the error LEASE_EXPIRED
    And the error names the field "leaseId"
    # checks INPUT-18
    When the agent sends input 1 "ls\n" under lease "mine"
    Then the reply acknowledges the prior dispatch of input 1 under lease "mine"
    # checks INPUT-08, INPUT-18
    And Lomi saw 1 "input.sent" effect
    And reading the terminal of "term" 100 characters at a time gives "ls\n"

  @INPUT-09
  Scenario: A new acquire revokes the earlier lease, and the new lease starts again at 1
    When the agent acquires the lease of the terminal of "term" as "first"
    And the agent sends input 1 "ls\n" under lease "first"
    And the agent acquires the lease of the terminal of "term" as "second"
    And the agent sends input 2 "pwd\n" under lease "first"
    Then the reply is the error LEASE_EXPIRED
    When the agent sends input 2 "pwd\n" under lease "second"
    Then the reply is the error INPUT_SEQUENCE_GAP
    And the error says the next inputSequence is "1"
    When the agent sends input 1 "pwd\n" under lease "second"
    Then the reply acknowledges a new dispatch
    And Lomi saw 2 "input.sent" effects

  @INPUT-10 @REV-02
  Scenario: A runtime restart makes the old session stale and expires its lease
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the runtime of the terminal of "term" restarts
    And the agent sends input 1 "ls\n" under lease "lease"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "terminalSessionId"
    When the agent refreshes the panels of workspace "ws-alpha"
    And the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{currentSession:term}}", "leaseId": "{{lease:lease}}", "inputSequence": "1", "text": "ls\n" }
      """
    Then the reply is the error LEASE_EXPIRED
    And Lomi saw 0 "input.sent" effects
    And the workspace "ws-alpha" has 1 terminal panel

  @INPUT-19
  Scenario: An input whose reply was lost is never sent again
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the next dispatch of lomi_terminal_input loses its reply
    And the agent sends input 1 "make deploy\n" under lease "lease"
    Then the reply is the error NATIVE_UNAVAILABLE
    When the agent sends input 1 "make deploy\n" under lease "lease"
    Then the reply is the error NATIVE_UNAVAILABLE
    And Lomi saw 1 "input.sent" effect
    When the agent sends input 2 "echo done\n" under lease "lease"
    Then the reply acknowledges a new dispatch
    And reading the terminal of "term" 100 characters at a time gives "make deploy\necho done\n"

  @INPUT-11 @EPOCH-01 @needs-crash
  Scenario: Input histories do not survive a broker restart: the old lease is expired and nothing is sent twice
    When the agent acquires the lease of the terminal of "term" as "lease"
    And the agent sends input 1 "make deploy\n" under lease "lease"
    And the broker crashes and restarts
    And the agent sends input 1 "make deploy\n" under lease "lease"
    Then the reply is the error LEASE_EXPIRED
    And Lomi saw 1 "input.sent" effect
    When the agent acquires the lease of the terminal of "term" as "fresh"
    And the agent sends input 1 "echo back\n" under lease "fresh"
    Then the reply acknowledges a new dispatch
    And Lomi saw 2 "input.sent" effects

  @INPUT-07 @SCH-02
  Scenario: Terminal input takes no request key, and nothing is sent
    When the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-any", "inputSequence": "1", "text": "ls\n",
        "requestKey": "type-ls-1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"
    And Lomi saw 0 "input.sent" effects

  @INPUT-07 @SCH-02
  Scenario: Terminal input takes no retry epoch either
    When the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-any", "inputSequence": "1", "text": "ls\n",
        "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"
    And Lomi saw 0 "input.sent" effects

  @SCH-05
  Scenario: inputSequence is a decimal string, not a number
    When the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-any", "inputSequence": 1, "text": "ls\n" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "inputSequence"
    When the agent calls lomi_terminal_input with:
      """
      { "workspaceId": "ws-alpha", "terminalSessionId": "{{session:term}}", "leaseId": "lease-any", "inputSequence": "01", "text": "ls\n" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "inputSequence"
    And Lomi saw 0 "input.sent" effects

  @SCH-11
  Scenario: A lease names exactly one kind of runtime
    When the agent calls lomi_lease_acquire with:
      """
      { "workspaceId": "ws-alpha", "runtime": { "kind": "terminal", "terminalSessionId": "{{session:term}}", "generation": "gen-1" } }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "runtime.generation"
    When the agent calls lomi_lease_acquire with:
      """
      { "workspaceId": "ws-alpha", "runtime": { "kind": "browser", "terminalSessionId": "{{session:term}}" } }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "runtime.kind"

  @REV-02 @INPUT-10
  Scenario: A lease for a terminal session that restarted is refused as stale
    When the runtime of the terminal of "term" restarts
    And the agent acquires the lease of the terminal of "term" as "late"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "terminalSessionId"

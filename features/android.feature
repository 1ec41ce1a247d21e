Feature: Android runtimes
  An Android panel shows a runtime with a generation. A launch proves that the intent was delivered,
  not that the expected screen appeared. Android input is ordered like terminal input, with its own
  lease and sequence. A restart gives the panel a new generation; the old one is stale.

  Background:
    Given the agent is connected to workspace "ws-mobile"
    And the agent refreshes the panels of workspace "ws-mobile"

  @OP-10 @OP-04
  Scenario: A launch succeeds on intent delivery and says the screen is not confirmed
    When the agent launches "com.lomi.demo" on Android panel "panel-pixel" in workspace "ws-mobile" as "launch"
    Then operation "launch" reads succeeded with effectState complete
    And operation "launch" confirms the intent was delivered, not the screen
    And Lomi saw 1 "intent.delivered" effect
    And Lomi saw 1 "screen.shown" effect

  @OP-10
  Scenario: A launch whose app never shows its screen still only confirms the intent
    When the agent launches "com.lomi.crashy" on Android panel "panel-pixel" in workspace "ws-mobile" as "launch"
    Then operation "launch" confirms the intent was delivered, not the screen
    And Lomi saw 1 "intent.delivered" effect
    And Lomi saw 0 "screen.shown" effects

  @IDEM-01 @OP-10
  Scenario: A launch retried after a lost reply returns the prior operation and delivers the intent once
    Given the next dispatch of lomi_android_launch loses its reply
    When the agent launches "com.lomi.demo" on Android panel "panel-pixel" in workspace "ws-mobile" as "launch"
    And the reply to "launch" is lost
    And the agent retries "launch"
    # checks IDEM-01
    Then the reply names the operation Lomi dispatched for "launch"
    # checks OP-10
    And operation "launch" confirms the intent was delivered, not the screen
    # checks IDEM-01
    And Lomi saw 1 dispatch of "launch"
    And Lomi saw 1 "intent.delivered" effect

  @REV-10
  Scenario: After a restart the old generation is stale while the panel lives on
    When the runtime of Android panel "panel-pixel" restarts
    And the agent launches "com.lomi.demo" on Android panel "panel-pixel" in workspace "ws-mobile" as "stale"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "generation"
    And Lomi saw 0 dispatches of "stale"
    And Lomi still shows Android panel "panel-pixel" in workspace "ws-mobile", with a new generation
    When the agent refreshes the panels of workspace "ws-mobile"
    And the agent launches "com.lomi.demo" on Android panel "panel-pixel" in workspace "ws-mobile" as "fresh"
    Then operation "fresh" confirms the intent was delivered, not the screen

  @IDEM-03 @REV-10
  Scenario: A retry with the generation of another runtime is another request
    When the agent launches "com.lomi.demo" on Android panel "panel-pixel" in workspace "ws-mobile" as "launch"
    And the runtime of Android panel "panel-pixel" restarts
    And the agent refreshes the panels of workspace "ws-mobile"
    And the agent retries "launch" with generation changed to "{{generation:panel-pixel}}"
    # checks IDEM-03
    Then the reply is the error IDEMPOTENCY_CONFLICT
    And Lomi saw 1 dispatch of "launch"

  @INPUT-16 @INPUT-03
  Scenario: Android input is ordered: the same sequence and payload acknowledge the prior dispatch
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "pixel"
    And the agent taps (540, 1200) as input 1 under lease "pixel"
    Then the reply acknowledges a new dispatch
    When the agent taps (540, 1200) as input 1 under lease "pixel"
    Then the reply acknowledges the prior dispatch of input 1 under lease "pixel"
    When the agent taps (10, 10) as input 1 under lease "pixel"
    Then the reply is the error INPUT_SEQUENCE_CONFLICT
    When the agent presses the "back" key as input 3 under lease "pixel"
    Then the reply is the error INPUT_SEQUENCE_GAP
    When the agent presses the "back" key as input 2 under lease "pixel"
    Then the reply acknowledges a new dispatch
    And Lomi saw 2 "android.input" effects

  @INPUT-16 @INPUT-09
  Scenario: An Android lease has its own sequence, and a new acquire revokes the earlier one
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "first"
    And the agent presses the "home" key as input 1 under lease "first"
    And the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "second"
    And the agent presses the "home" key as input 2 under lease "first"
    Then the reply is the error LEASE_EXPIRED
    When the agent presses the "home" key as input 1 under lease "second"
    Then the reply acknowledges a new dispatch
    And Lomi saw 2 "android.input" effects

  @REV-10 @INPUT-10
  Scenario: Input for a generation that restarted is stale, and nothing is sent
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "pixel"
    And the runtime of Android panel "panel-pixel" restarts
    And the agent taps (540, 1200) as input 1 under lease "pixel"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "generation"
    When the agent refreshes the panels of workspace "ws-mobile"
    And the agent calls lomi_android_input with:
      """
      { "workspaceId": "ws-mobile", "panelId": "panel-pixel", "generation": "{{generation:panel-pixel}}", "leaseId": "{{lease:pixel}}",
        "inputSequence": "1", "input": { "kind": "tap", "x": 540, "y": 1200 } }
      """
    Then the reply is the error LEASE_EXPIRED
    And Lomi saw 0 "android.input" effects

  @SCH-10
  Scenario: A tap outside the screen is refused by Lomi's validator, and nothing is sent
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "pixel"
    And the agent taps (1080, 200) as input 1 under lease "pixel"
    Then the reply is the error OUT_OF_RANGE
    And the error names the field "input.x"
    And Lomi saw 0 "android.input" effects
    When the agent taps (1079, 200) as input 1 under lease "pixel"
    Then the reply acknowledges a new dispatch

  @SCH-10 @SCH-04
  Scenario: Launching an app that is not installed is refused before anything is dispatched
    When the agent launches "com.example.missing" on Android panel "panel-pixel" in workspace "ws-mobile" as "missing"
    Then the reply is the error NOT_FOUND
    And the error names the field "appId"
    And Lomi saw no dispatch at all

  @SCH-01
  Scenario: An unknown field on a launch is rejected by name and nothing is dispatched
    When the agent calls lomi_android_launch with:
      """
      { "workspaceId": "ws-mobile", "panelId": "panel-pixel", "generation": "{{generation:panel-pixel}}", "appId": "com.lomi.demo",
        "waitForScreen": true, "retryEpoch": "{{epoch:ws-mobile}}", "requestKey": "launch-1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "waitForScreen"
    And Lomi saw no dispatch at all

  @INPUT-16 @SCH-05
  Scenario: Android input takes one kind of payload, and no request key
    When the agent acquires the lease of Android panel "panel-pixel" in workspace "ws-mobile" as "pixel"
    And the agent calls lomi_android_input with:
      """
      { "workspaceId": "ws-mobile", "panelId": "panel-pixel", "generation": "{{generation:panel-pixel}}", "leaseId": "{{lease:pixel}}",
        "inputSequence": "1", "input": { "kind": "swipe", "x": 1, "y": 2 } }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "input.kind"
    When the agent calls lomi_android_input with:
      """
      { "workspaceId": "ws-mobile", "panelId": "panel-pixel", "generation": "{{generation:panel-pixel}}", "leaseId": "{{lease:pixel}}",
        "inputSequence": "1", "input": { "kind": "key", "key": "back" }, "requestKey": "back-1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "requestKey"
    And Lomi saw 0 "android.input" effects

  @INPUT-01
  Scenario: Android input needs the Android runtime's lease, not a terminal's
    Given the agent creates a terminal "Shell" in workspace "ws-mobile" as "term"
    When the agent acquires the lease of the terminal of "term" as "terminal-lease"
    And the agent calls lomi_android_input with:
      """
      { "workspaceId": "ws-mobile", "panelId": "panel-pixel", "generation": "{{generation:panel-pixel}}", "leaseId": "{{lease:terminal-lease}}",
        "inputSequence": "1", "input": { "kind": "text", "text": "hello" } }
      """
    Then the reply is the error LEASE_REQUIRED
    And Lomi saw 0 "android.input" effects

Feature: Browser references are scoped to a snapshot and a document
  A snapshot names each element by an elementRef and its frame by a frameId. References are not
  selectors reusable forever: only the latest snapshot of the current document is valid.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"

  @REV-21
  Scenario: A snapshot lists the page's elements with their references and frames
    When the agent takes a snapshot of the browser of "docs"
    Then the reply is ok
    And the snapshot shows the page "Docs"
    And the snapshot shows "Helpful" inside a child frame

  @REV-21
  Scenario: A click with the latest snapshot's references is dispatched once
    When the agent takes a snapshot of the browser of "docs"
    And the agent clicks "Subscribe" in the browser of "docs" as "subscribe"
    Then the reply is ok
    And operation "subscribe" reads succeeded with effectState complete
    And Lomi saw 1 dispatch of "subscribe"
    And Lomi saw 1 "click.dispatched" effect

  @REV-21
  Scenario: A click inside an iframe names the iframe's frame
    When the agent takes a snapshot of the browser of "docs"
    And the agent clicks "Helpful" in the browser of "docs" as "helpful"
    Then operation "helpful" reads succeeded with effectState complete
    And Lomi saw 1 "click.dispatched" effect

  @REV-21
  Scenario: A reference from an older snapshot is stale, and nothing is dispatched
    When the agent takes a snapshot of the browser of "docs"
    And the agent takes a snapshot of the browser of "docs"
    Then the snapshots of the browser of "docs" share no reference
    When the agent clicks "Subscribe" from the first snapshot of the browser of "docs" as "old"
    Then the reply is the error STALE_REFERENCE
    And the error names the field "snapshotId"
    And Lomi saw 0 dispatches of "old"
    And Lomi saw 0 "click.dispatched" effects

  @REV-22
  Scenario: A click on a link starts a new navigation; the old document's references are stale
    When the agent takes a snapshot of the browser of "docs"
    And the agent clicks "Getting started" in the browser of "docs" as "link"
    Then operation "link" reads succeeded with effectState complete
    And operation "link" started a navigation
    And Lomi shows "https://docs.lomi.test/guide.html" in the browser of "docs"
    When the agent clicks "Subscribe" in the browser of "docs" as "stale"
    Then the reply is the error STALE_REFERENCE
    And the error names the field "navigationId"
    And Lomi saw 0 dispatches of "stale"
    And Lomi saw 1 "click.dispatched" effect

  @REV-22
  Scenario: After a navigation a fresh snapshot gives references that work
    When the agent takes a snapshot of the browser of "docs"
    And the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    And operation "guide" reads succeeded
    And the agent takes a snapshot of the browser of "docs"
    Then the snapshot shows the page "Getting started"
    When the agent clicks "Copy example" in the browser of "docs" as "copy"
    Then the reply is ok
    And operation "copy" reads succeeded with effectState complete

  @SCH-05
  Scenario: A click without an elementRef is rejected by name and nothing is dispatched
    When the agent calls lomi_browser_click with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "browserGeneration": "bgen-x", "navigationId": "nav-x",
        "snapshotId": "snap-x", "frameId": "frame-x", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "elementRef"
    And Lomi saw 1 "page.loaded" effect
    And Lomi saw 0 "click.dispatched" effects

  @SCH-01
  Scenario: A click does not take a selector in place of references
    When the agent calls lomi_browser_click with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "browserGeneration": "bgen-x", "navigationId": "nav-x",
        "snapshotId": "snap-x", "frameId": "frame-x", "elementRef": "el-x", "selector": "button.subscribe",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "selector"
    And Lomi saw 0 "click.dispatched" effects

  @SCH-02
  Scenario: A snapshot is an observation and takes no retry fields
    When the agent calls lomi_browser_snapshot with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "browserGeneration": "bgen-x", "retryEpoch": "{{epoch:ws-alpha}}" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "retryEpoch"

  @AUTH-10
  Scenario: A snapshot by the page's title rather than the panelId is refused
    When the agent calls lomi_browser_snapshot with:
      """
      { "workspaceId": "ws-alpha", "panelId": "Docs", "browserGeneration": "bgen-x" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "panelId"

Feature: Browser panels
  A browser panel shows one document at a time. Each load has its own navigationId; the runtime
  in the panel has a browserGeneration that a restart replaces while the panel lives on. Pages
  come from the simulated web (fixtures/pages), served by msw inside the simulator.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @ENV-04
  Scenario: tools/list publishes the browser and capture tools with strict inputs and output schemas
    Then tools/list includes "lomi_browser_open, lomi_browser_navigate, lomi_browser_snapshot, lomi_browser_click, lomi_browser_upload, lomi_capture"
    And every tool in tools/list has an input schema that rejects unknown fields and an output schema

  @REV-23 @OP-21
  Scenario: Opening a browser is a layout mutation that succeeds once its page has loaded
    When the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    Then the reply is ok
    And operation "docs" reads succeeded with effectState complete
    And operation "docs" loaded "Docs" as a new navigation
    And Lomi saw 1 "browser.opened" effect
    And Lomi saw 1 "page.loaded" effect
    And the workspace "ws-alpha" has 1 browser panel
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"

  @REV-23
  Scenario: A stale expectedRevision opens no browser
    When the user changes the layout of workspace "ws-alpha"
    And the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    Then the reply is the error REVISION_CONFLICT
    And the error names the field "expectedRevision"
    And Lomi saw no dispatch at all
    And the workspace "ws-alpha" has 0 browser panels

  @REV-23
  Scenario: The revision an open moved on is the one the next layout mutation needs
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    And operation "docs" reads succeeded
    When the agent creates a terminal "Tests" in workspace "ws-alpha" as "term" with expectedRevision set to "7"
    Then the reply is the error REVISION_CONFLICT
    When the agent opens a browser on "https://docs.lomi.test/guide.html" in workspace "ws-alpha" as "guide"
    Then the reply is ok
    And operation "guide" reads succeeded
    And the workspace "ws-alpha" has 2 browser panels

  @OP-22
  Scenario: A browser whose first page no server answers is open, with a partial effect
    When the agent opens a browser on "https://nowhere.lomi.test/" in workspace "ws-alpha" as "lost"
    Then the reply is ok
    And operation "lost" reads failed with effectState partial
    And operation "lost" carries the error NATIVE_FAILURE
    And the read was not an MCP error
    And the workspace "ws-alpha" has 1 browser panel
    And Lomi saw 1 "browser.opened" effect
    And Lomi saw 0 "page.loaded" effects

  @OP-21 @REV-22
  Scenario: Each navigation loads a new document with its own navigationId
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    And the agent takes a snapshot of the browser of "docs"
    When the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    Then the reply is ok
    And operation "guide" reads succeeded with effectState complete
    And operation "guide" loaded "Getting started" as a new navigation
    And Lomi shows "https://docs.lomi.test/guide.html" in the browser of "docs"

  @OP-21
  Scenario: A page the server does not have loads as its 404 document
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent navigates the browser of "docs" to "https://docs.lomi.test/missing.html" as "missing"
    Then operation "missing" reads succeeded with effectState complete
    And operation "missing" loaded "Not found" as a new navigation

  @OP-21 @OP-01
  Scenario: A held navigation is admitted, not done: the page changes only when Lomi loads it
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    And the next dispatch of lomi_browser_navigate is held
    When the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    Then operation "guide" reads running with effectState none
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"
    When Lomi completes the held dispatch of "guide"
    Then operation "guide" reads succeeded with effectState complete
    And Lomi shows "https://docs.lomi.test/guide.html" in the browser of "docs"

  @OP-04
  Scenario: A navigation no server answers fails with nothing changed
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent navigates the browser of "docs" to "https://nowhere.lomi.test/" as "lost"
    Then operation "lost" reads failed with effectState none
    And operation "lost" carries the error NATIVE_FAILURE
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"
    And Lomi saw 1 "page.loaded" effect

  @REV-20
  Scenario: After a runtime restart the old browserGeneration is stale while the panel lives on
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the runtime of the browser of "docs" restarts
    And the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "browserGeneration"
    And Lomi saw 0 dispatches of "guide"
    And the workspace "ws-alpha" has 1 browser panel
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"

  @REV-20
  Scenario: The panel list gives the new browserGeneration, and it works
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the runtime of the browser of "docs" restarts
    And the agent looks up the current runtime of the browser of "docs"
    And the agent navigates the browser of "docs" to "https://docs.lomi.test/guide.html" as "guide"
    Then the reply is ok
    And operation "guide" reads succeeded with effectState complete

  @REV-20
  Scenario: A snapshot of a restarted runtime is refused as stale
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the runtime of the browser of "docs" restarts
    And the agent takes a snapshot of the browser of "docs"
    Then the reply is the error STALE_RUNTIME
    And the error names the field "browserGeneration"

  @SCH-20
  Scenario: A browser panel refuses to load a local file, and nothing is dispatched
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    When the agent navigates the browser of "docs" to "file:///etc/passwd" as "local"
    Then the reply is the error PERMISSION_DENIED
    And the error names the field "url"
    And Lomi saw 0 dispatches of "local"
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"

  @SCH-20
  Scenario: A browser does not open on a script URL
    When the agent opens a browser on "javascript:alert(1)" in workspace "ws-alpha" as "script"
    Then the reply is the error PERMISSION_DENIED
    And Lomi saw no dispatch at all
    And the workspace "ws-alpha" has 0 browser panels

  @SCH-05
  Scenario: A browser open without a URL is rejected by name and nothing is dispatched
    When the agent calls lomi_browser_open with:
      """
      { "workspaceId": "ws-alpha", "expectedRevision": "{{revision:ws-alpha}}", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "url"
    And Lomi saw no dispatch at all

  @SCH-05
  Scenario: Something that is not a URL is rejected by its shape
    When the agent opens a browser on "docs" in workspace "ws-alpha" as "docs"
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "url"
    And Lomi saw no dispatch at all

  @SCH-01
  Scenario: A navigation does not take fields it does not declare
    When the agent calls lomi_browser_navigate with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "browserGeneration": "bgen-x", "url": "https://docs.lomi.test/",
        "waitUntil": "networkidle", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "waitUntil"
    And Lomi saw no dispatch at all

  @AUTH-10
  Scenario: A browser panel's title in place of its panelId is refused and nothing is dispatched
    Given the agent opens a browser on "https://docs.lomi.test/" in workspace "ws-alpha" as "docs"
    And operation "docs" reads succeeded
    When the agent calls lomi_browser_navigate with:
      """
      { "workspaceId": "ws-alpha", "panelId": "Docs", "browserGeneration": "bgen-x", "url": "https://docs.lomi.test/guide.html",
        "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "by-title" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "panelId"
    And Lomi shows "https://docs.lomi.test/" in the browser of "docs"
    And Lomi saw 1 "page.loaded" effect

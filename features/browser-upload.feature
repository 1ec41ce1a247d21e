Feature: Browser uploads
  An upload attaches a project file to a file input and dispatches its events. That is all Lomi
  can confirm: whether a server accepted the file is not known, and cancel cannot undo an upload.

  Background:
    Given the agent is connected to workspace "ws-alpha"
    And the agent opens a browser on "https://forms.lomi.test/upload.html" in workspace "ws-alpha" as "form"
    And the agent takes a snapshot of the browser of "form"

  @OP-20
  Scenario: An upload succeeds at attachment and event dispatch without confirming the server's acceptance
    When the agent uploads "reports/q3.pdf" to "Report" in the browser of "form" as "upload"
    Then the reply is ok
    And operation "upload" reads succeeded with effectState complete
    And operation "upload" attached "q3.pdf" without confirming the server's acceptance
    And Lomi saw 1 "file.attached" effect
    And Lomi saw 1 "events.dispatched" effect
    When the agent takes a snapshot of the browser of "form"
    Then the latest snapshot of the browser of "form" shows "Report" holding "q3.pdf"

  @CANCEL-20 @CANCEL-03
  Scenario: Cancelling a finished upload leaves the file attached
    When the agent uploads "reports/q3.pdf" to "Report" in the browser of "form" as "upload"
    And operation "upload" reads succeeded
    And the agent cancels "upload"
    Then the cancel outcome is already_settled
    And operation "upload" reads succeeded with effectState complete
    And Lomi saw 1 "file.attached" effect
    When the agent takes a snapshot of the browser of "form"
    Then the latest snapshot of the browser of "form" shows "Report" holding "q3.pdf"

  @CANCEL-20 @CANCEL-02
  Scenario: A cancel that comes while an upload is held does not stop the attachment Lomi goes on to make
    Given the next dispatch of lomi_browser_upload is held
    When the agent uploads "reports/q3.pdf" to "Report" in the browser of "form" as "upload"
    And the agent cancels "upload"
    Then the cancel outcome is cancelling
    When Lomi completes the held dispatch of "upload"
    Then operation "upload" reads succeeded with effectState complete
    And operation "upload" attached "q3.pdf" without confirming the server's acceptance

  @SCH-20 @SCH-04
  Scenario: A file outside the project is refused natively and nothing is dispatched
    When the agent uploads "../../etc/passwd" to "Report" in the browser of "form" as "escape"
    Then the reply is the error OUTSIDE_PROJECT
    And the error names the field "fileRelative"
    And Lomi saw 0 dispatches of "escape"
    And Lomi saw 0 "file.attached" effects

  @SCH-20
  Scenario: Only a file input takes an upload
    When the agent uploads "reports/q3.pdf" to "Send" in the browser of "form" as "button"
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "elementRef"
    And Lomi saw 0 dispatches of "button"

  @SCH-05
  Scenario: An upload without a file is rejected by name and nothing is dispatched
    When the agent calls lomi_browser_upload with:
      """
      { "workspaceId": "ws-alpha", "panelId": "panel-x", "browserGeneration": "bgen-x", "navigationId": "nav-x",
        "snapshotId": "snap-x", "frameId": "frame-x", "elementRef": "el-x", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "fileRelative"
    And Lomi saw 0 "file.attached" effects

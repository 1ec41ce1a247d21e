Feature: Git commits
  lomi_git_commit commits what is staged in a project's repository: a Git change, which cancel
  cannot undo. With nothing staged there is nothing to commit, and the request is refused.

  Background:
    Given the agent is connected to workspace "ws-alpha"

  @OP-04
  Scenario: Committing the staged paths makes a commit and leaves nothing staged
    When the agent commits "Add the app" in project "proj-app" of workspace "ws-alpha" as "commit"
    Then the reply is ok
    And operation "commit" reads succeeded with effectState complete
    And Lomi saw 1 "git.committed" effect
    When the agent calls lomi_git_status with:
      """
      { "workspaceId": "ws-alpha", "projectId": "proj-app" }
      """
    Then the reply's data includes:
      """
      { "branch": "main", "staged": [], "commits": [ { "message": "Add the app", "paths": ["src/app.ts", "README.md"] } ] }
      """

  @SCH-42
  Scenario: With nothing staged a commit is refused, and nothing is dispatched
    When the agent commits "Add the app" in project "proj-app" of workspace "ws-alpha" as "first"
    And operation "first" reads succeeded
    And the agent commits "Again" in project "proj-app" of workspace "ws-alpha" as "again"
    Then the reply is the error NOTHING_TO_COMMIT
    And Lomi saw 0 dispatches of "again"
    And Lomi saw 1 "git.committed" effect

  @CANCEL-41 @CANCEL-03
  Scenario: Cancelling a finished commit does not undo the Git change
    When the agent commits "Add the app" in project "proj-app" of workspace "ws-alpha" as "commit"
    And operation "commit" reads succeeded
    And the agent cancels "commit"
    # checks CANCEL-03
    Then the cancel outcome is already_settled
    And operation "commit" reads succeeded with effectState complete
    # checks CANCEL-41
    When the agent calls lomi_git_status with:
      """
      { "workspaceId": "ws-alpha", "projectId": "proj-app" }
      """
    Then the reply's data includes:
      """
      { "staged": [], "commits": [ { "message": "Add the app" } ] }
      """

  @CANCEL-41 @CANCEL-02
  Scenario: A commit Lomi completes after the cancel request stays committed
    Given the next dispatch of lomi_git_commit is held
    When the agent commits "Add the app" in project "proj-app" of workspace "ws-alpha" as "commit"
    And the agent cancels "commit"
    Then the cancel outcome is cancelling
    And Lomi saw 0 "git.committed" effects
    When Lomi completes the held dispatch of "commit"
    Then operation "commit" reads succeeded with effectState complete
    And Lomi saw 1 "git.committed" effect

  @SCH-05
  Scenario: A commit must name its project's repository
    When the agent calls lomi_git_commit with:
      """
      { "workspaceId": "ws-alpha", "message": "Add the app", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error INVALID_ARGUMENT
    And the error names the field "projectId"
    And Lomi saw no dispatch at all

  @AUTH-41
  Scenario: A project's name is not its ID
    When the agent calls lomi_git_status with:
      """
      { "workspaceId": "ws-alpha", "projectId": "app" }
      """
    Then the reply is the error NOT_FOUND
    And the error names the field "projectId"
    When the agent calls lomi_git_commit with:
      """
      { "workspaceId": "ws-alpha", "projectId": "app", "message": "Add the app", "retryEpoch": "{{epoch:ws-alpha}}", "requestKey": "k1" }
      """
    Then the reply is the error NOT_FOUND
    And Lomi saw no dispatch at all
